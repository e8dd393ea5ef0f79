// How every script runs the server: the Node that runs the script (under npm, the project's pinned runtime,
// package.json "dependencies"."node"), the V8 flags `npm start` uses, and the bundle of the server's sources
// (server-bundle.mjs), built first if the sources changed since it was.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { serverBundle } from './server-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The server's entry point in its sources. */
export const serverMain = path.join(root, 'packages/server/src/main.ts');

/** The V8 flags the server runs with (README, "Running it for real"). */
export const nodeFlags = JSON.parse(readFileSync(path.join(root, 'packages/server/node-flags.json'), 'utf8'));

/**
 * The server's environment: `env` and Node's compile cache, so a restart reads back the code that an earlier start
 * compiled rather than compiling it again.
 */
export function serverEnv(env = process.env) {
  return { NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/vitalwatch-compile'), ...env };
}

/**
 * The bundle's entry point, built first if the sources changed since it was; without a bundle (it could not be
 * built: an install without the development dependencies), the sources, run by Node's type stripping.
 */
function entryPoint() {
  try {
    const { dir, main } = serverBundle();
    if (!existsSync(main))
      spawnSync(process.execPath, [path.join(root, 'scripts/server-bundle.mjs')], { stdio: 'inherit' });
    if (existsSync(main)) {
      // Marked used: a build for other sources removes only bundles unused for a week.
      utimesSync(dir, new Date(), new Date());
      return main;
    }
  } catch (error) {
    console.warn(error);
  }
  console.warn('the server could not be bundled: it runs from its sources (a slower start)');
  return serverMain;
}

/** Arguments for `process.execPath` that start the server. */
export function serverArgs(extraFlags = []) {
  return [...nodeFlags, ...extraFlags, entryPoint()];
}
