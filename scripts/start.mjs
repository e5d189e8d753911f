// `npm start`: build if needed, then run the web process in this same process (signals reach it).
import { createRequire } from 'node:module';
import { ensureBuild } from './ensure-build.mjs';

ensureBuild();
createRequire(import.meta.url)('../dist/server/main.js');
