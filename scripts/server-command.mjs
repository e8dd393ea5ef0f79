// How every script runs the server: the Node that runs the script (under npm, the project's pinned runtime,
// package.json "dependencies"."node"), the V8 flags `npm start` uses, and main.ts run by Node's type stripping.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { drizzleBundle } from './drizzle-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** The server's entry point. */
export const serverMain = path.join(root, 'packages/server/src/main.ts');

/** The V8 flags the server runs with (README, "Running it for real"). */
export const nodeFlags = JSON.parse(readFileSync(path.join(root, 'packages/server/node-flags.json'), 'utf8'));

/**
 * The server's environment: `env` and Node's compile cache, so a restart reads back the code (TypeScript already
 * stripped) that an earlier start compiled rather than compiling it again.
 */
export function serverEnv(env = process.env) {
  return { NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/vitalwatch-compile'), ...env };
}

/**
 * `--import` of the hook that serves drizzle-orm pre-bundled (drizzle-bundle.mjs), built first if it is not yet
 * (once per drizzle-orm version); without it, if it cannot be built, the server loads drizzle-orm as installed.
 */
function drizzleFlags() {
  if (!existsSync(drizzleBundle().manifest)) {
    spawnSync(process.execPath, [path.join(root, 'scripts/drizzle-bundle.mjs')], { stdio: 'inherit' });
    if (!existsSync(drizzleBundle().manifest)) {
      console.warn('drizzle-orm could not be pre-bundled: the server loads it as installed (a slower start)');
      return [];
    }
  }
  return ['--import', pathToFileURL(path.join(root, 'scripts/drizzle-hook.mjs')).href];
}

/** Arguments for `process.execPath` that start the server. */
export function serverArgs(extraFlags = []) {
  return [...nodeFlags, ...drizzleFlags(), ...extraFlags, serverMain];
}
