import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { drizzleOverPglite, migrationsFolder, newPglite } from '../src/db/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a PGlite with every migration applied: each test file's database starts from it. */
    pgliteTemplate: string;
  }
}

/**
 * Migrating a fresh PGlite costs each test file 3-4 s; loading a migrated one from its dump ~1 s.
 * The dump is named by the migrations and PGlite's version, so it is made once per change.
 */
export default async function setup(project: TestProject) {
  project.provide('pgliteTemplate', await migratedPgliteDump());
}

async function migratedPgliteDump() {
  const hash = createHash('sha256');
  const serverPackage = JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8'));
  hash.update(serverPackage.dependencies['@electric-sql/pglite']);
  for (const dir of [migrationsFolder, path.join(migrationsFolder, 'meta')]) {
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.sql') || name.endsWith('.json'))
        hash.update(name).update(readFileSync(path.join(dir, name)));
    }
  }
  const file = path.join(tmpdir(), `vw-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(file)) return file;
  const client = newPglite();
  await migrate(drizzleOverPglite(client), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  // Written aside and renamed: another run reading the same name never sees half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}
