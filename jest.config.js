// NestJS 12 and MikroORM 7 ship as ES modules only: SWC turns them (and our TypeScript) into
// CommonJS for jest, with the legacy decorators and metadata Nest needs. The packages that call
// `import()` (@fastify/cookie, PGlite's .cjs builds) are turned too, into require(): so jest runs
// without --experimental-vm-modules, whose dynamic-import hook keeps V8 from caching compiled code
// (about a third more CPU per test file).
const ESM_ONLY = [
  '@nestjs', '@mikro-orm', 'kysely', 'uuid', 'file-type', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras',
  'content-disposition', 'request-filtering-agent', 'cookie', '@fastify/cookie', '@electric-sql',
];

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|mt|cj)sx?$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleNameMapper: {
    '^src/(.*)$': '<rootDir>/src/$1',
    '^web/(.*)$': '<rootDir>/web/$1',
    '^migrations/(.*)$': '<rootDir>/migrations/$1',
    '^test/(.*)$': '<rootDir>/test/$1',
  },
  moduleFileExtensions: ['ts', 'tsx', 'mts', 'js', 'mjs', 'cjs', 'json'],
  // ONNX Runtime's output arrays come from Node's realm: give the test realm the same typed arrays.
  setupFiles: ['<rootDir>/test/support/host-typed-arrays.ts'],
};

/** The services' tiers share one migrated template database per run (and drop it at the end). */
const services = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/**
 * Tier 4: real browsers, and tests whose subject is processes themselves (npm scripts, benches, start-up
 * and readiness, shutdown, the worker process and the image jobs it runs and is killed in, the embedded
 * database, the fleet). Everything else in test/ is tier 3.
 */
const BROWSER_AND_PROCESS = [
  '/test/([^/]+\\.)?browser\\.e2e-spec\\.ts$',
  '/test/(npm-scripts|quality-bench|startup|readiness|shutdown|worker|images|embedded-database|fleet)\\.e2e-spec\\.ts$',
];

/**
 * One project per jest tier (`npm run test:unit`, `test:int`, `test:e2e` pick one each); lint is
 * tier 1 and runs outside jest. scripts/test.mjs runs the tiers in order and reports their times.
 */
/** @type {import('jest').Config} */
module.exports = {
  reporters: ['default', '<rootDir>/test/support/timing-reporter.mjs'],
  // A safety net, not a measure (tests wait for what they assert): wide enough for a test that
  // starts processes on a machine whose other core is busy. A global option in jest.
  testTimeout: 120_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/src', '<rootDir>/web', '<rootDir>/scripts'],
      testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
      setupFiles: [...shared.setupFiles, '<rootDir>/test/support/no-services.ts'],
    },
    {
      ...shared,
      ...services,
      displayName: 'int',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.int-spec.ts', '**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...BROWSER_AND_PROCESS],
    },
    {
      ...shared,
      ...services,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testRegex: BROWSER_AND_PROCESS,
    },
  ],
};
