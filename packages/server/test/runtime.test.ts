import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const rootPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: { node: string };
  engines: { node: string };
};

describe('the runtime the project pins', () => {
  it('runs the tests: the Node of package.json "dependencies"."node", an LTS line from 24 on', () => {
    const pinned = rootPackage.dependencies.node;
    const major = Number(pinned.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(24);
    // Even majors are the LTS lines.
    expect(major % 2).toBe(0);
    expect(rootPackage.engines.node).toBe(`>=${major}.11`);
    expect(process.versions.node).toBe(pinned);
  });
});
