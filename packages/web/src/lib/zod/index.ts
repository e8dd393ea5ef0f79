/**
 * What `import … from 'zod'` resolves to in the web build (vite.config.ts): zod itself, after
 * ./jitless.ts has switched off its eval-based parsers. Imports run in order, so the switch is set
 * before zod's core module reads it, whichever chunk the bundler puts them in.
 */
import './jitless.ts';

export * from 'zod/v4';
