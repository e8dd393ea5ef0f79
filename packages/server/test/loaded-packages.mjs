// Preloaded (`--import`) by server-bundle.test.ts: as the process exits, writes to LOADED_PACKAGES_FILE
// the packages it loaded from node_modules (by import or require), one a line.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    // The last node_modules of the path: a package installed inside another is itself.
    const found = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (found) loaded.add(found[1]);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(process.env.LOADED_PACKAGES_FILE, [...loaded].join('\n')));
