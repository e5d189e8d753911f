import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The module rules of .dependency-cruiser.cjs (run by `npm run lint` over the real tree), applied to a
 * small tree of two modules written for the test: each import that bypasses a module's index.ts is
 * reported under its rule, and the allowed ones are not. Proves the rules catch what they promise,
 * which a clean lint run alone cannot.
 */

const ROOT = resolve(__dirname, '..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

// levels: a public face, a service, an adapter, a module file. search, the CLI and ssr import it every way.
const TREE: Record<string, string> = {
  'src/modules/levels/index.ts': "export { LevelsService } from './application/levels.service';\n",
  'src/modules/levels/application/levels.service.ts': 'export class LevelsService {}\n',
  'src/modules/levels/adapters/persistence/postgres-levels.adapter.ts': 'export class PostgresLevels {}\n',
  'src/modules/levels/levels.module.ts': "import { PostgresLevels } from './adapters/persistence/postgres-levels.adapter';\nexport class LevelsModule { p = PostgresLevels; }\n",
  // Allowed: the index from a service, the index and the module file from a module file.
  'src/modules/search/application/search.service.ts': "import { LevelsService } from '../../levels/index';\nexport class SearchService { l = LevelsService; }\n",
  'src/modules/search/search.module.ts':
    "import { LevelsModule } from '../levels/levels.module';\nimport { LevelsService } from '../levels/index';\nexport class SearchModule { m = LevelsModule; s = LevelsService; }\n",
  // Bypasses: a service deep into another module's application and adapters, and through its module file.
  'src/modules/search/application/deep.ts': "import { LevelsService } from '../../levels/application/levels.service';\nexport const deep = LevelsService;\n",
  'src/modules/search/application/adapter.ts': "import { PostgresLevels } from '../../levels/adapters/persistence/postgres-levels.adapter';\nexport const adapter = PostgresLevels;\n",
  'src/modules/search/application/via-module.ts': "import { LevelsModule } from '../../levels/levels.module';\nexport const viaModule = LevelsModule;\n",
  'src/modules/search/adapters/http/search.controller.ts': "import { LevelsService } from '../../../levels/application/levels.service';\nexport const controller = LevelsService;\n",
  // A module file may not reach another module's adapters either.
  'src/modules/search/search-extra.module.ts': "import { PostgresLevels } from '../levels/adapters/persistence/postgres-levels.adapter';\nexport const extra = PostgresLevels;\n",
  // An index.ts that hands out an adapter: importing the face would drag in Postgres.
  'src/modules/credits/index.ts': "export { PostgresLedger } from './adapters/persistence/postgres-ledger.adapter';\n",
  'src/modules/credits/adapters/persistence/postgres-ledger.adapter.ts': 'export class PostgresLedger {}\n',
  // The CLI: through the index is fine. The SSR bridge: not even through the index (it knows no module's service), nor past it.
  'src/cli/levels-report.ts': "import { LevelsService } from '../modules/levels/index';\nexport const ok = LevelsService;\n",
  'src/ssr/page-data.ts': "import { LevelsService } from '../modules/levels/index';\nexport const service = LevelsService;\n",
  'src/ssr/deep-page-data.ts': "import { LevelsService } from '../modules/levels/application/levels.service';\nexport const deep = LevelsService;\n",
  // Fakes: for specs and other fakes only; a fake reaches another module through its index or its fakes.
  'src/modules/levels/testing/in-memory-levels.ts': "import { LevelsService } from '../application/levels.service';\nexport class InMemoryLevels { s = LevelsService; }\n",
  'src/modules/levels/application/uses-fake.ts': "import { InMemoryLevels } from '../testing/in-memory-levels';\nexport const fake = InMemoryLevels;\n",
  'src/modules/search/testing/search-bed.ts':
    "import { InMemoryLevels } from '../../levels/testing/in-memory-levels';\nimport { LevelsService } from '../../levels/application/levels.service';\nexport const bed = [InMemoryLevels, LevelsService];\n",
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function cruise(dir: string): Promise<Violation[]> {
  // The project's rules, with the options that only make sense in the real tree (tsconfig paths) left out.
  const { forbidden } = createRequire(__filename)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: unknown[] };
  await writeFile(join(dir, '.dependency-cruiser.json'), JSON.stringify({ forbidden, options: { tsPreCompilationDeps: true } }));
  const { stdout } = await promisify(execFile)(DEPCRUISE, ['src', '--config', '.dependency-cruiser.json', '--output-type', 'json'], { cwd: dir }).catch(
    // depcruise exits non-zero when it finds violations; the report is still on stdout.
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('module boundaries (dependency-cruiser rules)', () => {
  let dir: string;
  let violations: Violation[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'module-boundaries-'));
    for (const [path, text] of Object.entries(TREE)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    violations = await cruise(dir);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const found = (from: string) => violations.filter((v) => v.from === from).map((v) => `${v.rule.name} -> ${v.to}`);

  it('reports a service or controller importing past another module’s index.ts', () => {
    expect(found('src/modules/search/application/deep.ts')).toEqual(['modules-talk-through-index -> src/modules/levels/application/levels.service.ts']);
    expect(found('src/modules/search/adapters/http/search.controller.ts')).toEqual([
      'modules-talk-through-index -> src/modules/levels/application/levels.service.ts',
    ]);
    expect(found('src/modules/search/application/adapter.ts')).toContainEqual(
      'modules-talk-through-index -> src/modules/levels/adapters/persistence/postgres-levels.adapter.ts',
    );
  });

  it('reports a use case taking what it needs through another module’s module file', () => {
    expect(found('src/modules/search/application/via-module.ts')).toContainEqual('modules-talk-through-index -> src/modules/levels/levels.module.ts');
  });

  it('reports a module file reaching another module’s adapters', () => {
    expect(found('src/modules/search/search-extra.module.ts')).toEqual([
      'module-files-wire-only -> src/modules/levels/adapters/persistence/postgres-levels.adapter.ts',
    ]);
  });

  it('reports the SSR bridge importing a module’s internals, or a module’s service through its index.ts', () => {
    expect(found('src/ssr/deep-page-data.ts')).toEqual(['outside-modules-through-index -> src/modules/levels/application/levels.service.ts']);
    expect(found('src/ssr/page-data.ts')).toEqual(['ssr-knows-no-module -> src/modules/levels/index.ts']);
  });

  it('reports an index.ts that exports an adapter', () => {
    expect(found('src/modules/credits/index.ts')).toEqual([
      'index-is-a-face-not-wiring -> src/modules/credits/adapters/persistence/postgres-ledger.adapter.ts',
    ]);
  });

  it('reports code that runs importing a fake, and a fake reaching past another module’s index', () => {
    expect(found('src/modules/levels/application/uses-fake.ts')).toEqual(['testing-is-for-specs -> src/modules/levels/testing/in-memory-levels.ts']);
    expect(found('src/modules/search/testing/search-bed.ts')).toEqual(['testing-talks-through-index-or-testing -> src/modules/levels/application/levels.service.ts']);
    expect(found('src/modules/levels/testing/in-memory-levels.ts')).toEqual([]);
  });

  it('allows the index.ts, and the module file for wiring', () => {
    expect(found('src/modules/search/application/search.service.ts')).toEqual([]);
    expect(found('src/modules/search/search.module.ts')).toEqual([]);
    expect(found('src/cli/levels-report.ts')).toEqual([]);
    expect(found('src/modules/levels/levels.module.ts')).toEqual([]);
  });
});
