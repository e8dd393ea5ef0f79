// Types for server-command.mjs, for the TypeScript that starts servers (e2e/server-process.ts).
export const serverMain: string;
export const nodeFlags: string[];
export function serverEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function serverArgs(extraFlags?: string[]): string[];
