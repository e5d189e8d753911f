// NestJS 12 and MikroORM 7 ship as ES modules only: SWC turns them (and our TypeScript) into
// CommonJS for jest, with the legacy decorators and metadata Nest needs.
const ESM_ONLY = ['@nestjs', '@mikro-orm', 'kysely', 'uuid', 'file-type', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras'];

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

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/web', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j|mj|mt)sx?$': swc },
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
  testTimeout: 60_000,
};
