import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The mail written to an outbox folder (`DATA_DIR/outbox`) to `to`, oldest first, with
 * quoted-printable soft line breaks and `=3D` undone so links read whole. None when the folder
 * does not exist yet.
 */
export function mailsIn(dir: string, to: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return names
    .map((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(`To: ${to}`));
}
