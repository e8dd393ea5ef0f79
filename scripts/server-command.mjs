// How every script runs the server: the Node that runs the script (under npm, the project's pinned runtime,
// package.json "dependencies"."node"), the V8 flags `npm start` uses, and main.ts run by Node's type stripping.
import { readFileSync } from 'node:fs';
import path from 'node:path';

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

/** Arguments for `process.execPath` that start the server. */
export function serverArgs(extraFlags = []) {
  return [...nodeFlags, ...extraFlags, serverMain];
}
