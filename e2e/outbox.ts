import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The mail the end-to-end server wrote to its DATA_DIR/outbox (scripts/e2e-server.mjs says where). */
function outboxMessages(): string[] {
  const port = process.env.E2E_PORT ?? '3210';
  const dataDir = readFileSync(
    path.resolve(import.meta.dirname, '..', '.tmp', `e2e-data-dir-${port}`),
    'utf8',
  );
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  // Quoted-printable soft line breaks and `=` escapes undone, so links read whole.
  return files.sort().map((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '='),
  );
}

/** Every message to `to` written so far, oldest first. */
export const mailsTo = (to: string): string[] => outboxMessages().filter((m) => m.includes(`To: ${to}`));

/** The newest message to `to` whose text matches `pattern`, waiting for it to be written. */
export async function mailTo(to: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => {
      found = mailsTo(to)
        .filter((m) => pattern.test(m))
        .at(-1);
      return found !== undefined;
    })
    .toBe(true);
  return found as string;
}
