// drizzle-orm for the server's processes from a few pre-bundled files instead of its ~300 modules. Node
// re-reads drizzle-orm's package.json (179 kB, 447 export entries) for every one of its modules it loads, to
// learn their format: 0.7 s of each start-up on this machine, about half of it. The bundle is built once per
// drizzle-orm version (about a second), kept under node_modules/.cache, and put in place by a resolve hook
// (`drizzle-hook.mjs`, given to the server with --import by server-command.mjs); the source, the tests and
// the tools import drizzle-orm as it is.
//   node scripts/drizzle-bundle.mjs   builds it if missing
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const drizzleRoot = path.join(root, 'node_modules/drizzle-orm');

/** Every drizzle-orm entry point the server imports (a check in server-command.test.ts keeps it complete). */
export const DRIZZLE_ENTRIES = [
  'drizzle-orm',
  'drizzle-orm/pg-core',
  'drizzle-orm/node-postgres',
  'drizzle-orm/node-postgres/migrator',
  'drizzle-orm/pglite',
  'drizzle-orm/pglite/migrator',
];

/** Where the bundle of the installed drizzle-orm lives, and its manifest: specifier → file URL. */
export function drizzleBundle() {
  const { version } = JSON.parse(readFileSync(path.join(drizzleRoot, 'package.json'), 'utf8'));
  const dir = path.join(root, 'node_modules/.cache/vitalwatch-drizzle', version);
  return { dir, manifest: path.join(dir, 'manifest.json') };
}

async function build() {
  const { dir, manifest } = drizzleBundle();
  const { build: rolldown } = await import('rolldown');
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const input = Object.fromEntries(DRIZZLE_ENTRIES.map((s) => [s.replaceAll('/', '__'), s]));
  await rolldown({
    input,
    cwd: root,
    // Only drizzle-orm goes in; what it imports from elsewhere (pg, PGlite) stays the installed package.
    external: (id, _importer, resolved) =>
      resolved
        ? !id.includes(`${path.sep}node_modules${path.sep}drizzle-orm${path.sep}`)
        : !/^(drizzle-orm|\.|\/)/.test(id),
    output: {
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: '[name]-[hash].mjs',
    },
    logLevel: 'warn',
  });
  const urls = Object.fromEntries(
    DRIZZLE_ENTRIES.map((s) => [s, pathToFileURL(path.join(dir, `${s.replaceAll('/', '__')}.mjs`)).href]),
  );
  writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(urls));
  // Whole or not at all: a concurrent build or an interrupted one never leaves half a bundle in place.
  mkdirSync(path.dirname(dir), { recursive: true });
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(manifest)) throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && !existsSync(drizzleBundle().manifest)) {
  await build();
}
