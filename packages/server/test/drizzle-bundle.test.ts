import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRIZZLE_ENTRIES, drizzleBundle } from '../../../scripts/drizzle-bundle.mjs';
import { serverArgs } from '../../../scripts/server-command.mjs';

const src = path.resolve(import.meta.dirname, '../src');

/** Every `from 'drizzle-orm…'` specifier in the server's source. */
function drizzleImports(): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    for (const m of readFileSync(path.join(src, file), 'utf8').matchAll(/from '(drizzle-orm[^']*)'/g))
      found.add(m[1]!);
  }
  return found;
}

describe("the server's pre-bundled drizzle-orm (scripts/drizzle-bundle.mjs)", () => {
  it('covers every drizzle-orm entry point the server imports: one copy of drizzle-orm, never two', () => {
    expect(drizzleImports().size).toBeGreaterThan(3);
    expect([...drizzleImports()].filter((s) => !DRIZZLE_ENTRIES.includes(s))).toEqual([]);
  });

  it('is what those entry points resolve to in a server process, and works', () => {
    const args = serverArgs().slice(0, -1);
    const probe = `
      const urls = ${JSON.stringify(DRIZZLE_ENTRIES)}.map((s) => import.meta.resolve(s));
      const { sql, is, SQL } = await import('drizzle-orm');
      const { pgTable, text } = await import('drizzle-orm/pg-core');
      const t = pgTable('t', { a: text('a') });
      console.log(JSON.stringify({ urls, isSql: is(sql\`select \${t.a}\`, SQL) }));`;
    const out = execFileSync(process.execPath, [...args, '--input-type=module', '-e', probe], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      encoding: 'utf8',
    });
    const { urls, isSql } = JSON.parse(out) as { urls: string[]; isSql: boolean };
    const manifest = JSON.parse(readFileSync(drizzleBundle().manifest, 'utf8')) as Record<string, string>;
    expect(urls).toEqual(DRIZZLE_ENTRIES.map((s) => manifest[s]));
    expect(isSql).toBe(true);
  });
});
