/**
 * zod builds fast parsers with `new Function` unless told not to, and first probes whether it may.
 * The server's CSP (script-src 'self') forbids eval, so the probe is a CSP violation on every page
 * load (Chrome's Issues panel, Lighthouse best practices, any violation report), although zod
 * catches it. This must run before zod's core module: see ./index.ts and vite.config.ts.
 */
type ZodGlobalConfig = { jitless?: boolean };
const scope = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
