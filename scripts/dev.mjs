// `npm run dev`: SWC recompiles the server on change and Node restarts it; Vite (inside the
// server, middleware mode) hot-reloads the React pages.
import { spawn, execSync } from 'node:child_process';

execSync('npm run build:server', { stdio: 'inherit' });
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
const children = [
  spawn('npx', ['swc', 'src', 'migrations', '-d', 'dist/server', '--watch', '--quiet'], { stdio: 'inherit', env }),
  spawn(process.execPath, ['--watch-path=dist/server', '--enable-source-maps', 'dist/server/src/main.js'], {
    stdio: 'inherit',
    env,
  }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
