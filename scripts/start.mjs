// `npm start`: build the web app if it is not built (or older than its sources), then run the server.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureWebBuilt } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');

ensureWebBuilt();

const server = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: process.cwd() },
);
process.exit(server.status ?? 0);
