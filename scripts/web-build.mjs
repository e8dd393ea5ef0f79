// Builds the web app when it is not built, or older than its sources (npm start, npm run lighthouse).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'packages/web');

/** Where the built web app is. */
export const webDist = path.join(webDir, 'dist');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Runs `vite build` when dist/index.html is missing or older than any source; exits on failure. */
export function ensureWebBuilt() {
  const index = path.join(webDist, 'index.html');
  const sources = [
    path.join(webDir, 'src'),
    path.join(webDir, 'public'),
    path.join(root, 'packages/shared/src'),
  ];
  const stale =
    !existsSync(index) || Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(index).mtimeMs;
  if (!stale) return;
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@vitalwatch/web'], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
