// `npm start`: build the web app if it is not built (or older than its sources), then run the server.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'packages/web');
const dist = path.join(webDir, 'dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = [
  path.join(webDir, 'src'),
  path.join(webDir, 'public'),
  path.join(root, 'packages/shared/src'),
];
const stale =
  !existsSync(dist) || Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(dist).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@vitalwatch/web'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: process.cwd() },
);
process.exit(server.status ?? 0);
