import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { routeObjects } from './scripts/route-objects.mts';

/** The client build's id, set by buildId() and read when the service worker is built after the bundle. */
let clientBuildId: string | undefined;
const currentBuildId = () => {
  if (!clientBuildId) throw new Error('The service worker is built after the client bundle: no build id yet');
  return clientBuildId;
};

/** Writes builds/latest.json: the build id the running app compares against to spot a new deploy. */
function buildId(): Plugin {
  return {
    name: 'build-id',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment.config.build.ssr) return;
      const id = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 16);
      clientBuildId = id;
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: JSON.stringify({ id }) });
    },
  };
}

/** The site's green (the favicon's square, the manifest's theme colour: src/ssr/web-manifest.ts). */
const BRAND_GREEN = '#16a34a';

/**
 * The app icons the web manifest names, drawn at build time from web/public/favicon.svg: the mark
 * at 192 and 512 px (`icons/icon-*.png`), a maskable 512 px one (the door on a full green square,
 * inside the middle 80% that every launcher's mask keeps) and `apple-touch-icon.png` (180 px, full
 * square: iOS rounds it), which iOS finds by its name.
 */
function appIcons(): Plugin {
  return {
    name: 'app-icons',
    apply: 'build',
    async generateBundle() {
      if (this.environment.config.build.ssr) return;
      const { default: sharp } = await import('sharp');
      const mark = await readFile(resolve(import.meta.dirname, 'web/public/favicon.svg'), 'utf8');
      // The door and keyhole without the rounded square they sit on.
      const door = mark.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '').replace(/<rect[^>]*\/>/, '');
      const fullSquare = (scale: number) =>
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND_GREEN}"/><g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${door}</g></svg>`;
      // Rasterised at the size asked for (the SVG is 32 units: 72 dpi would draw 32 px and blur when enlarged).
      const png = (svg: string, size: number) => sharp(Buffer.from(svg), { density: (72 * size) / 32 }).resize(size, size).png().toBuffer();
      const icons: [string, string, number][] = [
        ['icons/icon-192.png', mark, 192],
        ['icons/icon-512.png', mark, 512],
        ['icons/maskable-512.png', fullSquare(0.8), 512],
        ['apple-touch-icon.png', fullSquare(0.9), 180],
      ];
      for (const [fileName, svg, size] of icons) this.emitFile({ type: 'asset', fileName, source: await png(svg, size) });
    },
  };
}

/**
 * `PWA_KILL_SWITCH=1 npm run build`: a build whose sw.js unregisters itself and empties its caches
 * (vite-plugin-pwa's selfDestroying) and whose pages register no worker (docs/operations.md).
 */
const PWA_KILL_SWITCH = process.env.PWA_KILL_SWITCH === '1';

/**
 * The service worker (web/pwa/sw.ts), built with vite-plugin-pwa's injectManifest strategy: our own
 * worker on Workbox's modules, because what it keeps is the site's own rule (web/pwa/caching-rules.ts:
 * guides with the next two, this build's pages only, never signed-in answers), which generateSW's
 * runtimeCaching options cannot say. The plugin builds it after the client bundle into
 * dist/client/sw.js with the precache list: the build's JS and CSS, the page chunk map (client-side
 * navigation reads it, offline too), the favicon, and the offline page
 * (revisioned by the build id, so each build precaches its own). The pages register it themselves,
 * after load (web/pwa/pwa-client.ts); the server makes the web manifest from the site's settings.
 */
const pwa = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'web/pwa',
    filename: 'sw.ts',
    injectRegister: false,
    manifest: false,
    selfDestroying: PWA_KILL_SWITCH,
    integration: {
      // The worker's own build: as quiet as the client's (`--logLevel warn`), one file, said the way Vite 8's bundler expects.
      configureCustomSWViteBuild(build) {
        build.logLevel = 'warn';
        const output = build.build?.rollupOptions?.output;
        if (output && !Array.isArray(output) && output.inlineDynamicImports) {
          delete output.inlineDynamicImports;
          Object.assign(output, { codeSplitting: false });
        }
      },
    },
    injectManifest: {
      globPatterns: ['assets/**/*.{js,css,json}', 'favicon.svg'],
      manifestTransforms: [async (entries) => ({ manifest: [...entries, { url: 'offline', revision: currentBuildId(), size: 0 }], warnings: [] })],
      buildPlugins: { vite: [{ name: 'sw-build-id', config: () => ({ define: { __BUILD_ID__: JSON.stringify(currentBuildId()) } }) }] },
    },
  });

/**
 * A chunk group's test: the project's modules at these paths, each list a folder (from the project's
 * root) and the files in it.
 */
function oneOf(...folders: [folder: string, ...files: string[]][]): (id: string) => boolean {
  const paths = new Set(folders.flatMap(([folder, ...files]) => files.map((file) => resolve(import.meta.dirname, folder, file))));
  return (id) => paths.has(id);
}

/** One config for the client bundle (dist/client) and the server-rendering bundle (dist/ssr). */
export default defineConfig(({ isSsrBuild }) => ({
  root: resolve(import.meta.dirname),
  publicDir: 'web/public',
  plugins: [routeObjects(), react(), tailwindcss(), buildId(), ...(isSsrBuild ? [] : [appIcons(), pwa()])],
  define: { __PWA_KILL_SWITCH__: JSON.stringify(PWA_KILL_SWITCH) },
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
        // The icons' image (web/styles/icons.svg, 3.4 KB) in the stylesheet, as the icons were before it:
        // drawn with the first paint, no request of its own. Other assets by Vite's usual size rule.
        assetsInlineLimit: (file: string) => (file.endsWith('/web/styles/icons.svg') ? true : undefined),
        rollupOptions: {
          input: 'web/entry-client.tsx',
          // zod in one chunk, as before pages had a file each: split by which pages share each of its
          // modules, the login page and the image tool downloaded it as three gzip streams (+1 KB).
          // The rest groups what pages share into two chunks. Split by which pages share each module, a
          // public page's first load was up to 10 chunks of 0.5 to 5 KB beside the entry, each a request
          // (6 at a time over HTTP/1.1; Lighthouse's LCP waited on the last of them) and a compressed
          // stream of its own: now 5 on `/` and `/levels`, 4 on a guide. The price, measured: some pages
          // carry code they do not run, 1-3 KB gzipped on the blog, search and account pages
          // (docs/benchmarks.md, "Fewer chunks").
          output: {
            codeSplitting: {
              groups: [
                { name: 'zod-jitless', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]web[\\/]lib[\\/]zod-jitless\.ts$/ },
                // Helmet, loaded after the first render (web/lib/head-tags.tsx), by its name.
                { name: 'helmet', test: /[\\/]node_modules[\\/](react-helmet-async|react-fast-compare|shallowequal|invariant)[\\/]/, includeDependenciesRecursively: false },
                // What the guide shares with most pages, in one chunk: the head tags, the levels contract,
                // dates, stored state and progress, the level navigation and bits.
                {
                  name: 'page-common',
                  test: oneOf(
                    ['web/components', 'level-bits.tsx', 'seo.tsx'],
                    ['web/features/levels', 'level-nav.tsx'],
                    ['web/lib', 'seo.ts', 'stored-state.ts', 'use-stored-state.ts', 'progress.ts', 'progress-store.ts'],
                    ['src/contracts', 'levels.ts', 'date-format.ts', 'progress.ts'],
                  ),
                  includeDependenciesRecursively: false,
                },
                // What every page but the guide shares: the pages' copy, and the public pages' parts (page
                // links, the level grid and cards, the search form, the FAQ, number formats).
                {
                  name: 'page-messages',
                  test: oneOf(
                    ['web/i18n', 'page-messages.ts', 'messages/pages/en.ts'],
                    ['web/features', 'content/content.messages.ts', 'levels/levels.messages.ts', 'offline/offline.messages.ts', 'progress/progress.messages.ts', 'search/search.messages.ts'],
                    ['web/components', 'page-links.tsx', 'level-grid.tsx', 'level-card.tsx', 'page-search-form.tsx', 'faq.tsx'],
                    ['web/lib', 'pagination.ts'],
                    ['src/contracts', 'number-format.ts'],
                  ),
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
        modulePreload: {
          // A page chunk's imports are preloaded by web/entry-client.tsx from the page chunk map
          // (scripts/route-objects.mts), fetched on the first navigation: the entry does not carry vite's copy of that list.
          // The service worker's client loads after the page, when nothing is waiting on it: no list of its imports either.
          resolveDependencies: (file: string, deps: string[]) => (/\.page-[\w-]+\.js$|\/pwa-client-[\w-]+\.js$/.test(file) ? [] : deps),
        },
      },
}));
