// Development only: installs React Fast Refresh before the app's modules run (the job Vite's
// index.html transform does in a plain SPA; our HTML is rendered by the server instead).
// @ts-expect-error virtual module served by @vitejs/plugin-react in development
import RefreshRuntime from '/@react-refresh';

const w = window as unknown as Record<string, unknown>;
RefreshRuntime.injectIntoGlobalHook(window);
w.$RefreshReg$ = () => {};
w.$RefreshSig$ = () => (type: unknown) => type;
w.__vite_plugin_react_preamble_installed__ = true;
