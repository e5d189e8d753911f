// The build's reading of the route objects (`definePage({...})` in web/features/<feature>/*.routes.ts):
// the client build leaves out their server-only parts, and writes each route's page chunks, found
// from the route's own `page: () => import('...')`, as the page chunk map (src/contracts/page-data.ts).
import ts from 'typescript';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
// Types only: a value import of src/ would make Vite's config loader warn (ESM in a .ts file of a CommonJS package).
import type { PAGE_CHUNKS_ASSET as PageChunksAsset, PageChunks } from '../src/contracts/page-data.ts';

/** The manifest name of the map the server reads (the type keeps the two spellings one). */
const PAGE_CHUNKS_ASSET: typeof PageChunksAsset = 'page-chunks.json';

/** What only the server reads of a route object (web/lib/router/page.ts): matching, caching, loading, tests. */
const SERVER_ONLY_ROUTE_FIELDS = new Set(['path', 'cache', 'query', 'access', 'loader', 'sections', 'sample', 'sitemap']);

/** One definePage() call of a routes file, as the build reads it. */
export interface RouteObjectSource {
  id: string;
  /** What `page: () => import('...')` imports ('web/features/levels/level.page'); none for a route without a page. */
  page?: string;
  /** The call's object literal (offsets in the file) and its text in the browser: without the server-only fields. */
  start: number;
  end: number;
  browserText: string;
}

/** Reads the definePage() calls of a routes file; a call the build cannot read fails, naming the file. */
export function readRouteObjects(code: string, fileName: string): RouteObjectSource[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true);
  const routes: RouteObjectSource[] = [];
  const fail = (node: ts.Node, what: string): never => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    throw new Error(`${fileName}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'definePage') {
      const [route] = node.arguments;
      if (!route || !ts.isObjectLiteralExpression(route)) return fail(node, 'definePage() takes an object literal');
      let id: string | undefined;
      let page: string | undefined;
      const kept: string[] = [];
      for (const property of route.properties) {
        if (!ts.isPropertyAssignment(property)) return fail(property, 'definePage() takes plain properties (`name: value`), no spreads or shorthands');
        const name = property.name.getText(source);
        if (name === 'id') {
          if (!ts.isStringLiteralLike(property.initializer)) return fail(property, 'a route id is a string literal');
          id = property.initializer.text;
        }
        if (name === 'page') page = importedBy(property.initializer) ?? fail(property, "a route's page is `() => import('web/features/<feature>/<name>.page')`");
        if (!SERVER_ONLY_ROUTE_FIELDS.has(name)) kept.push(property.getText(source));
      }
      if (id === undefined) return fail(route, 'a route object has an id');
      routes.push({ id, ...(page ? { page } : {}), start: route.getStart(source), end: route.getEnd(), browserText: `{ ${kept.join(', ')} }` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return routes;
}

/** The specifier of `() => import('literal')`, else undefined. */
function importedBy(node: ts.Expression): string | undefined {
  if (!ts.isArrowFunction(node) || node.parameters.length > 0 || !ts.isCallExpression(node.body)) return undefined;
  const { expression, arguments: [specifier] } = node.body;
  return expression.kind === ts.SyntaxKind.ImportKeyword && specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined;
}

const isRoutesFile = (id: string) => /\.routes\.ts$/.test(id.split('?', 1)[0]!);

/**
 * In the browser a route is its id, page and colorMode: the server matches URLs and hands the
 * browser the route id (PageState.routeId). So the client build empties every loader module
 * (*.loader.ts; and *.server.ts, other server-only work of a page, a default export that is
 * undefined in the browser): neither a loader nor what it imports (zod schemas, say) ships; and it
 * drops the server-only fields from each definePage() call. It then writes the page chunk map,
 * PAGE_CHUNKS_ASSET: each route's page chunk and the chunks it imports that the entry does not
 * already load, keyed by route id. The server preloads the first page's chunks from it; the browser
 * fetches it (hashed, immutable, precached by the service worker) for the pages it goes to next.
 */
export function routeObjects(): Plugin {
  /** Each route's page module (resolved id), read from its `page` import while the routes files were transformed. */
  const pageModules = new Map<string, string>();
  return {
    name: 'route-objects',
    enforce: 'pre',
    buildStart() {
      pageModules.clear();
    },
    load(id) {
      if (this.environment.config.consumer === 'client' && /\.(loader|server)\.ts$/.test(id.split('?', 1)[0]!)) return 'export default undefined;';
    },
    async transform(code, id) {
      if (this.environment.config.consumer !== 'client' || !isRoutesFile(id)) return;
      const routes = readRouteObjects(code, id);
      for (const route of routes) {
        if (!route.page) continue;
        const resolved = await this.resolve(route.page, id);
        if (!resolved) this.error(`${id}: route '${route.id}' imports ${route.page}, which does not resolve`);
        pageModules.set(route.id, resolved.id);
      }
      return routes.reduceRight((text, route) => text.slice(0, route.start) + route.browserText + text.slice(route.end), code);
    },
    generateBundle(_options, bundle) {
      if (this.environment.config.consumer !== 'client') return;
      const byRoute = pageChunksByRoute(bundle, pageModules);
      this.emitFile({ type: 'asset', name: PAGE_CHUNKS_ASSET, originalFileName: PAGE_CHUNKS_ASSET, source: JSON.stringify(pageChunkMap(byRoute)) });
    },
  };
}

/** PageChunks from each page's list of files: every file named once, pages listing indexes into `files`. */
export function pageChunkMap(byRoute: Record<string, string[]>): PageChunks {
  const files: string[] = [];
  const index = new Map<string, number>();
  const pages: Record<string, number[]> = {};
  for (const [routeId, list] of Object.entries(byRoute)) {
    pages[routeId] = list.map((file) => {
      if (!index.has(file)) index.set(file, files.push(file) - 1);
      return index.get(file)!;
    });
  }
  return { files, pages };
}

/** Each route's page chunk, then the chunks it imports that the entry does not load itself (URLs from the site's root). */
function pageChunksByRoute(bundle: OutputBundle, pageModules: ReadonlyMap<string, string>): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (file: string, seen = new Set<string>()): string[] => {
    if (seen.has(file)) return [];
    seen.add(file);
    return [file, ...(byFile.get(file)?.imports ?? []).flatMap((imported) => closure(imported, seen))];
  };
  const entries = chunks.filter((chunk) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`The client build has ${entries.length} entry chunks: the page chunk map expects one`);
  const withEntry = new Set(closure(entries[0]!.fileName));
  const byModule = new Map(chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk.fileName] as const] : [])));
  const byRoute: Record<string, string[]> = {};
  for (const [routeId, module] of pageModules) {
    const file = byModule.get(module);
    if (!file) throw new Error(`Route '${routeId}': no chunk was built from its page ${module}`);
    byRoute[routeId] = closure(file).filter((name) => !withEntry.has(name)).map((name) => `/${name}`);
  }
  return byRoute;
}
