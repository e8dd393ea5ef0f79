// Types for drizzle-bundle.mjs, for the server's test of it (packages/server/test/drizzle-bundle.test.ts).
export const DRIZZLE_ENTRIES: string[];
export function drizzleBundle(): { dir: string; manifest: string };
