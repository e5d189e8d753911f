import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes builds/latest.json: the build id the running app compares against to spot a new deploy. */
function buildId(): Plugin {
  return {
    name: 'build-id',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment.config.build.ssr) return;
      const id = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 16);
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: JSON.stringify({ id }) });
    },
  };
}

/**
 * Loaders run on the server only. A route object names its loader (web/features/<feature>/*.loader.ts),
 * so the browser's graph reaches it too: there every such module is an empty one, and neither the
 * loader nor what it imports (zod schemas, say) ships. PageRoute.loader is undefined in the browser.
 */
function serverOnlyLoaders(): Plugin {
  return {
    name: 'server-only-loaders',
    enforce: 'pre',
    load(id) {
      if (this.environment.config.consumer === 'client' && /\.loader\.ts$/.test(id.split('?', 1)[0]!)) return 'export default undefined;';
    },
  };
}

/** One config for the client bundle (dist/client) and the server-rendering bundle (dist/ssr). */
export default defineConfig(({ isSsrBuild }) => ({
  root: resolve(import.meta.dirname),
  publicDir: 'web/public',
  plugins: [serverOnlyLoaders(), react(), tailwindcss(), buildId()],
  resolve: {
    alias: { src: resolve(import.meta.dirname, 'src'), web: resolve(import.meta.dirname, 'web') },
  },
  build: isSsrBuild
    ? {
        outDir: 'dist/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        rollupOptions: { input: 'web/entry-server.tsx', output: { entryFileNames: '[name].mjs', format: 'es' } },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rollupOptions: { input: 'web/entry-client.tsx' },
      },
}));
