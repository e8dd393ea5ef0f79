// Given to the server with --import (server-command.mjs): drizzle-orm's entry points resolve to the
// pre-bundled files of drizzle-bundle.mjs. In-thread and synchronous (module.registerHooks): nothing but
// these specifiers is touched.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { drizzleBundle } from './drizzle-bundle.mjs';

const bundled = new Map(Object.entries(JSON.parse(readFileSync(drizzleBundle().manifest, 'utf8'))));

// Node 22.15 / 23.5 and later (the project runs on 24); an older runtime loads drizzle-orm as installed.
module.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    const url = bundled.get(specifier);
    return url ? { url, format: 'module', shortCircuit: true } : nextResolve(specifier, context);
  },
});
