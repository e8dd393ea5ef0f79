import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the linter cannot say about module boundaries, read from the sources: a module's
 * service.ts offers services, never its repository; routes call services, never a repository or
 * the access layer; outside modules/, only the composition root reaches past a service.ts.
 */
const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
/** Every `import … from '…'` and `export … from '…'` of a file, with its specifier. */
const fromClauses = (text: string) =>
  [...text.matchAll(/^(import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => ({
    kind: m[1]!,
    specifier: m[2]!,
    line: m[0].replace(/\s+/g, ' '),
  }));
const isRepository = (specifier: string) => /(^|\/|-)repository\.ts$/.test(specifier);

describe('module boundaries', () => {
  it('no service.ts re-exports what a repository has (its row types excepted)', () => {
    const reExports = files
      .filter((f) => /^modules\/[^/]+\/service\.ts$/.test(f.path))
      .flatMap((f) =>
        fromClauses(f.text)
          .filter(
            (c) => c.kind === 'export' && !c.line.startsWith('export type ') && isRepository(c.specifier),
          )
          .map((c) => `${f.path}: ${c.line}`),
      );
    expect(reExports).toEqual([]);
  });

  it('routes import no repository and no access check: their services do', () => {
    const reaches = files
      .filter((f) => /^modules\/[^/]+\/([\w-]+-)?routes\.ts$/.test(f.path))
      .flatMap((f) =>
        fromClauses(f.text)
          .filter((c) => isRepository(c.specifier) || /(^|\/)access\//.test(c.specifier))
          .map((c) => `${f.path}: ${c.line}`)
          .concat([...f.text.matchAll(/\bcanSee\w*\(/g)].map((m) => `${f.path}: calls ${m[0]}`)),
      );
    expect(reaches).toEqual([]);
  });

  it('outside modules/, only the composition root imports a module file other than its service.ts', () => {
    const reaches = files
      .filter((f) => !f.path.startsWith('modules/') && !['composition.ts', 'context.ts'].includes(f.path))
      .flatMap((f) =>
        fromClauses(f.text)
          .filter((c) => /(^|\/)modules\/[^/]+\/(?!service\.ts$)[^/]+$/.test(c.specifier))
          .map((c) => `${f.path}: ${c.line}`),
      );
    expect(reaches).toEqual([]);
  });
});
