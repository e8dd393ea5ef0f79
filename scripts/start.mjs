// `npm start`: build the web app if it is not built (or older than its sources), then run the server.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureWebBuilt } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** The V8 flags the server runs with (README, "Running it for real"). */
const nodeFlags = JSON.parse(readFileSync(path.join(root, 'packages/server/node-flags.json'), 'utf8'));

ensureWebBuilt();

const server = spawnSync(
  process.execPath,
  [...nodeFlags, '--import', 'tsx', path.join(root, 'packages/server/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: process.cwd() },
);
process.exit(server.status ?? 0);
