// `npm run dev`: SWC recompiles the server on change and Node restarts it; Vite (inside the
// server, middleware mode) hot-reloads the React pages. The server is compiled into var/dev, not
// dist/: a dev session never rewrites the build that `npm start` (or a test run) is running.
import { spawn } from 'node:child_process';

const OUT = 'var/dev/server';
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
const swc = (watch) => [process.execPath, ['node_modules/@swc/cli/bin/swc.js', 'src', 'migrations', '-d', OUT, '--quiet', '--ignore', '**/*.spec.ts,**/testing/**', ...(watch ? ['--watch'] : [])]];

// One full compile first, so the server starts on code that is all there.
const first = spawn(...swc(false), { stdio: 'inherit', env });
const [code] = await new Promise((done) => first.on('exit', (...args) => done(args)));
if (code !== 0) process.exit(code ?? 1);

const children = [
  spawn(...swc(true), { stdio: 'inherit', env }),
  spawn(process.execPath, [`--watch-path=${OUT}`, '--enable-source-maps', `${OUT}/src/main.js`], { stdio: 'inherit', env }),
];
// Ctrl-C reaches every process of the group; a SIGTERM to this script alone stops the others too.
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
