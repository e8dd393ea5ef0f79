// `npm start`: build the web app if it is not built (or older than its sources), then run the server from
// its bundle (server-bundle.mjs: rebuilt, in under a second, when its sources changed).
import { spawnSync } from 'node:child_process';
import { serverArgs, serverEnv } from './server-command.mjs';
import { ensureWebBuilt } from './web-build.mjs';

ensureWebBuilt();

const server = spawnSync(process.execPath, [...serverArgs(), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: process.cwd(),
  env: serverEnv(),
});
process.exit(server.status ?? 0);
