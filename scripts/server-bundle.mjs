// The server's processes run its code from a bundle: the TypeScript of packages/server and packages/shared
// and drizzle-orm, stripped of their types and joined into a few JavaScript files by rolldown. A start then
// neither strips types nor resolves and links ~300 modules of ours and ~300 of drizzle-orm's (Node re-reads
// drizzle-orm's 179 kB package.json for each); the other dependencies load as installed. The bundle is built
// when the sources change (under a second), kept under node_modules/.cache by a fingerprint of them, and
// started by `scripts/server-command.mjs` (`npm start`, the end-to-end tests, the benchmarks). The tests
// and the tools run the sources as they are.
//   node scripts/server-bundle.mjs   builds it if it is missing or older than the sources
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, 'node_modules/.cache/vitalwatch-server');
const SOURCES = ['packages/server/src', 'packages/shared/src'];

/** Each bundled file's path in the sources, and the worker the database thread starts (from its URL). */
const ENTRIES = {
  main: 'packages/server/src/main.ts',
  'pglite-worker': 'packages/server/src/db/pglite-worker.ts',
};
const WORKER_URL = "new URL('./pglite-worker.ts', import.meta.url)";
const WORKER_STARTER = path.join('db', 'pglite-head-start.ts');
/**
 * A bundle (or an interrupted build) not started from for this long is removed by the next build: a server
 * still running from one loads from it later (the report's chunk, its database thread's worker after a crash).
 * Each start marks its bundle used (server-command.mjs).
 */
const UNUSED_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** What the bundle is made of: the bundler, drizzle-orm, the packages' settings and the sources (paths, sizes, times). */
function fingerprint() {
  const hash = createHash('sha256');
  hash.update(`${root}\n`);
  hash.update(readFileSync(import.meta.filename));
  const settings = ['node_modules/drizzle-orm/package.json', 'node_modules/rolldown/package.json'];
  for (const dir of SOURCES) settings.push(`${dir}/../package.json`, `${dir}/../tsconfig.json`);
  // A package missing (an install without the development dependencies) is part of the fingerprint too.
  for (const file of settings)
    hash.update(existsSync(path.join(root, file)) ? readFileSync(path.join(root, file)) : 'absent');
  for (const dir of SOURCES) {
    const files = readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).sort();
    for (const file of files) {
      if (path.basename(file).startsWith('.')) continue;
      // A file gone since the listing (an editor's save) is left out; its successor is there next time.
      const stat = statSync(path.join(root, dir, file), { throwIfNoEntry: false });
      if (stat?.isFile()) hash.update(`${dir}/${file} ${stat.size} ${stat.mtimeMs} ${stat.ctimeMs}\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The bundle of the sources as they are now: its directory and the file a server starts. */
export function serverBundle() {
  const dir = path.join(cache, fingerprint());
  return { dir, main: path.join(dir, 'main.mjs') };
}

/**
 * Paths read relative to a module (`new URL('./migrations', import.meta.url)`) stay those of its source file;
 * the database thread's worker is the bundle's own.
 */
function sourceUrls() {
  const sourceDirs = SOURCES.map((dir) => path.join(root, dir) + path.sep);
  return {
    name: 'vitalwatch-source-urls',
    transform(code, id) {
      if (!sourceDirs.some((dir) => id.startsWith(dir)) || !code.includes('import.meta.url')) return null;
      const worker = code.includes(WORKER_URL);
      if (!worker && id.endsWith(WORKER_STARTER)) this.error(`${WORKER_STARTER} no longer has ${WORKER_URL}`);
      let out = code.replace(WORKER_URL, "new URL('./pglite-worker.mjs', WORKER_BUNDLE_URL)");
      out = out.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href));
      if (worker) out = out.replace('WORKER_BUNDLE_URL', 'import.meta.url');
      return { code: out, map: null };
    },
  };
}

/** Builds the bundle of the sources as they are now, unless it exists; returns it. */
export async function buildServerBundle() {
  const bundle = serverBundle();
  if (existsSync(bundle.main)) return bundle;
  const { build } = await import('rolldown');
  const staging = `${bundle.dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const started = performance.now();
  await build({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    cwd: root,
    platform: 'node',
    // Ours and drizzle-orm go in; every other package is loaded as installed.
    external: (id, _importer, resolved) =>
      resolved
        ? id.includes(`${path.sep}node_modules${path.sep}`) &&
          !id.includes(`${path.sep}node_modules${path.sep}drizzle-orm${path.sep}`)
        : !/^(drizzle-orm|@vitalwatch\/|\.|\/)/.test(id),
    plugins: [sourceUrls()],
    output: {
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: '[name]-[hash].mjs',
      sourcemap: true,
    },
    logLevel: 'warn',
  });
  // Whole or not at all: a concurrent build or an interrupted one never leaves half a bundle in place.
  mkdirSync(cache, { recursive: true });
  try {
    renameSync(staging, bundle.dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(bundle.main)) throw error;
  }
  for (const name of readdirSync(cache)) {
    const dir = path.join(cache, name);
    if (dir !== bundle.dir && Date.now() - statSync(dir).mtimeMs > UNUSED_FOR_MS)
      rmSync(dir, { recursive: true, force: true });
  }
  console.log(`server bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return bundle;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServerBundle();
