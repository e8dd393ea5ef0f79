// Types for server-bundle.mjs, for the server's test of it (packages/server/test/server-bundle.test.ts).
export function serverBundle(): { dir: string; main: string };
export function buildServerBundle(): Promise<{ dir: string; main: string }>;
