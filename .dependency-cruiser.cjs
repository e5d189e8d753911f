/**
 * Layering rules from ../shared/STYLE.md, checked by `npm run lint` (and so by `npm test` and CI).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Cycles make modules impossible to read or test alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      comment: 'domain/ holds rules and ports: no framework, no ORM, no HTTP, no other layer.',
      from: { path: '^src/modules/([^/]+)/domain/' },
      to: {
        pathNot: ['^src/modules/$1/domain/', '^src/contracts/', '^src/platform/errors/app-error\\.ts$', '^src/platform/content/content-file\\.ts$'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'application-uses-ports-not-adapters',
      severity: 'error',
      comment: 'Use cases call ports; the module file binds adapters to them.',
      from: { path: '^src/modules/([^/]+)/application/' },
      to: { path: ['^src/modules/[^/]+/adapters/', '@mikro-orm', 'fastify', 'ioredis', 'bullmq'] },
    },
    {
      name: 'modules-talk-through-index',
      severity: 'error',
      comment:
        "Another module is reached through its public face, src/modules/<name>/index.ts (its ports, services, errors and types). Module files may also import another module's module file, for Nest's `imports`.",
      from: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/[^/]+/[^/]+\\.module\\.ts$', '^src/modules/[^/]+/testing/'] },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'testing-talks-through-index-or-testing',
      severity: 'error',
      comment: "A module's fakes (testing/) reach another module through its index.ts, or its fakes (a billing test bed spends through the credits module's in-memory ledger).",
      from: { path: '^src/modules/([^/]+)/testing/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/testing/'] },
    },
    {
      name: 'module-files-wire-only',
      severity: 'error',
      comment: "A module file reaches another module through its index.ts, or its module file for Nest's `imports`: never its adapters or internals.",
      from: { path: '^src/modules/([^/]+)/[^/]+\\.module\\.ts$' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.module\\.ts$'] },
    },
    {
      name: 'outside-modules-through-index',
      severity: 'error',
      comment:
        "The SSR bridge and the CLI reach a module through its index.ts, or its module file to wire it. The process entries (main.ts, worker.ts, the app and worker module files) compose everything and are exempt.",
      from: { path: '^src/(ssr|cli)/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.module\\.ts$'] },
    },
    {
      name: 'ssr-knows-no-module',
      severity: 'error',
      comment:
        "The SSR bridge composes what modules add to the page registries (src/platform/pages: page data sections, sitemap entries, page views) and calls no module's service: a module's page is that module's and its web feature's alone. Auth's face is the exception (is this visitor an admin, for admin pages); module files may be imported to wire them.",
      from: { path: '^src/ssr/' },
      to: { path: '^src/modules/[^/]+/index\\.ts$', pathNot: '^src/modules/auth/index\\.ts$' },
    },
    {
      name: 'index-is-a-face-not-wiring',
      severity: 'error',
      comment:
        "A module's index.ts exports its ports, services, errors and types: no module file, no adapter (the route guards other modules' controllers use excepted), so importing it drags in no Postgres, Redis or HTTP client.",
      from: { path: '^src/modules/([^/]+)/index\\.ts$' },
      to: {
        path: ['^src/modules/[^/]+/[^/]+\\.module\\.ts$', '^src/modules/[^/]+/adapters/'],
        pathNot: '^src/modules/[^/]+/adapters/http/[^/]+\\.guards?\\.ts$',
      },
    },
    {
      name: 'platform-knows-no-module',
      severity: 'error',
      comment: 'The platform serves every module and depends on none.',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|ssr)/' },
    },
    {
      name: 'contracts-are-pure',
      severity: 'error',
      comment: 'Shared with the browser: plain TypeScript and zod only.',
      from: { path: '^src/contracts/' },
      to: { pathNot: ['^src/contracts/', 'node_modules/zod/'], dependencyTypesNot: ['type-only', 'core'] },
    },
    {
      name: 'web-uses-contracts-only',
      severity: 'error',
      comment: 'The React app sees the server only through src/contracts.',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/contracts/' },
    },
    {
      name: 'web-has-no-server-frameworks',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: ['node_modules/@nestjs/', 'node_modules/@mikro-orm/', 'node_modules/fastify/', 'node_modules/ioredis/', 'node_modules/pg/'] },
    },
    {
      name: 'pages-load-lazily',
      severity: 'error',
      comment:
        'A page (web/features/<feature>/<name>.page.tsx) is its own chunk: only its route object imports it, with import(). So no component, helper or other page reaches up into one.',
      from: {},
      to: { path: '\\.page\\.tsx$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'pages-are-imported-by-routes',
      severity: 'error',
      from: { pathNot: '\\.routes\\.ts$' },
      to: { path: '\\.page\\.tsx$' },
    },
    {
      name: 'loaders-are-server-only',
      severity: 'error',
      comment:
        'A loader (*.loader.ts) runs on the server; the client build empties it (scripts/route-objects.mts). Only route objects import one; a page reads its type with `import type`.',
      from: { pathNot: '\\.routes\\.ts$' },
      to: { path: '\\.loader\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-lib-knows-no-feature',
      severity: 'error',
      comment: 'web/lib holds browser helpers every feature may use; it depends on none.',
      from: { path: '^web/lib/' },
      to: { path: '^web/features/' },
    },
    {
      name: 'config-only-in-config',
      severity: 'error',
      comment: 'Tests may build configs from their own environment; production code never imports test helpers.',
      from: { path: '^(src|web)/' },
      to: { path: '^test/' },
    },
    {
      name: 'testing-is-for-specs',
      severity: 'error',
      comment:
        "A testing/ folder (src/modules/<name>/testing/, src/platform/<area>/testing/) holds in-memory fakes of its ports and the set-up specs share: only specs (which are not cruised), test/ and other testing/ folders import it, never the code that runs (the build leaves it out).",
      from: { pathNot: ['^test/', '^src/.+/testing/'] },
      to: { path: '^src/.+/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.tsx?$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
