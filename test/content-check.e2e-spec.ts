import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CONTENT_CLI, ROOT } from './support/app-process';

const run = promisify(execFile);

/** `npm run content:check` (the built CLI): every fault of every guide file as `file:line: field: problem`, exit code 1; no database. */
describe('content:check', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-check-'));
    await cp(join(ROOT, 'content/levels'), join(dir, 'levels'), { recursive: true });
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const check = () =>
    run(process.execPath, [CONTENT_CLI, 'check'], { cwd: ROOT, env: { ...process.env, CONTENT_DIR: dir } }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  it('passes the sample content, pictures included', async () => {
    const { code, stdout } = await check();
    expect(stdout).toContain('32 guide(s) and 6 picture(s) checked: no problems');
    expect(code).toBe(0);
  });

  it('prints each fault with its file and line, across files, and fails', async () => {
    const file = join(dir, 'levels/027.md');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('label: the hinge', 'label: ""').replace('image: images/027-sky.png', 'image: images/027-moon.png'));
    await writeFile(join(dir, 'levels/002.md'), (await readFile(join(dir, 'levels/002.md'), 'utf8')).replace(/^difficulty: .*$/m, 'difficulty: extreme'));
    const { code, stdout } = await check();
    expect(stdout.split('\n').filter((line) => line.startsWith('content/'))).toEqual([
      expect.stringMatching(/^content\/levels\/002\.md:4: difficulty: /),
      expect.stringMatching(/^content\/levels\/027\.md:\d+: puzzles\.0\.steps\.1\.marks\.0\.label: must not be empty$/),
    ]);
    expect(code).toBe(1);
    // Once the format is right, the missing picture is found too.
    await writeFile(file, text.replace('image: images/027-sky.png', 'image: images/027-moon.png'));
    const again = await check();
    expect(again.stdout).toMatch(/^content\/levels\/027\.md:\d+: puzzles\.1\.steps\.2\.image: levels\/images\/027-moon\.png does not exist$/m);
    expect(again.code).toBe(1);
  });
});
