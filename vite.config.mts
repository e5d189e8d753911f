import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import ts from 'typescript';
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

/** What only the server reads of a route object (web/lib/router/page.ts): matching, caching, loading, tests. */
const SERVER_ONLY_ROUTE_FIELDS = new Set(['path', 'module', 'cache', 'query', 'access', 'loader', 'sample', 'sitemap']);

/**
 * Route objects (`definePage({...})` in web/features/<feature>/*.routes.ts) carry their server-only
 * parts, and the client build leaves them out: each loader module (*.loader.ts) is an empty one, so
 * neither the loader nor what it imports (zod schemas, say) ships, and the fields above are dropped
 * from each definePage() call. In the browser a route is its id, page and colorMode: the server
 * matches URLs and hands the browser the route id (PageState.routeId), and the page chunk map is
 * keyed by route id (forRoutes in src/contracts/page-data.ts).
 */
function serverOnlyRouteParts(): Plugin {
  return {
    name: 'server-only-route-parts',
    enforce: 'pre',
    load(id) {
      // *.server.ts: other server-only work of a page (its structured data), a default export that is undefined in the browser.
      if (this.environment.config.consumer === 'client' && /\.(loader|server)\.ts$/.test(id.split('?', 1)[0]!)) return 'export default undefined;';
    },
    transform(code, id) {
      if (this.environment.config.consumer !== 'client' || !/\.routes\.ts$/.test(id.split('?', 1)[0]!)) return;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'definePage') {
          const [route] = node.arguments;
          if (!route || !ts.isObjectLiteralExpression(route)) throw new Error(`${id}: definePage() takes an object literal`);
          const kept = route.properties.filter((property) => {
            if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) throw new Error(`${id}: definePage() takes plain properties`);
            return !SERVER_ONLY_ROUTE_FIELDS.has(property.name.getText(source));
          });
          edits.push({ start: route.getStart(source), end: route.getEnd(), text: `{ ${kept.map((property) => property.getText(source)).join(', ')} }` });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      return edits.reduceRight((text, edit) => text.slice(0, edit.start) + edit.text + text.slice(edit.end), code);
    },
  };
}

/** One config for the client bundle (dist/client) and the server-rendering bundle (dist/ssr). */
export default defineConfig(({ isSsrBuild }) => ({
  root: resolve(import.meta.dirname),
  publicDir: 'web/public',
  plugins: [serverOnlyRouteParts(), react(), tailwindcss(), buildId()],
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
        rollupOptions: {
          input: 'web/entry-client.tsx',
          // zod in one chunk, as before pages had a file each: split by which pages share each of its
          // modules, the login page and the image tool downloaded it as three gzip streams (+1 KB).
          // Stored state and progress in one chunk too: split by which pages and lazy chunks share each
          // module, they were five chunks of 200 to 400 bytes on a level page (+0.4 KB gzipped), each a
          // gzip stream of its own.
          output: {
            codeSplitting: {
              groups: [
                { name: 'zod-jitless', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]web[\\/]lib[\\/]zod-jitless\.ts$/ },
                { name: 'stored-state', test: /[\\/]web[\\/]lib[\\/](use-)?stored-state\.ts$|[\\/](web[\\/]lib|src[\\/]contracts)[\\/]progress(-store)?\.ts$/, includeDependenciesRecursively: false },
                // The guide and "not covered yet" pages share their navigation; the level lists share the rest.
                { name: 'level-bits', test: /[\\/]web[\\/](components[\\/]level-bits|features[\\/]levels[\\/]level-nav)\.tsx$/, includeDependenciesRecursively: false },
              ],
            },
          },
        },
        modulePreload: {
          // A page chunk's imports are preloaded by web/entry-client.tsx from assets.pageChunks (the
          // hydration data already carries them), so the entry does not carry vite's copy of that list.
          resolveDependencies: (file: string, deps: string[]) => (/\.page-[\w-]+\.js$/.test(file) ? [] : deps),
        },
      },
}));
