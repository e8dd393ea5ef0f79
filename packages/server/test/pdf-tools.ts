import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What poppler-utils (pdftotext, pdffonts, pdfinfo; .ci/run installs them) read from a PDF: its
 * text in reading order, its fonts, its document information and its structure tree.
 */
export async function popplerRead(pdf: Buffer) {
  const dir = await mkdtemp(join(tmpdir(), 'vitalwatch-pdf-'));
  const file = join(dir, 'report.pdf');
  try {
    await writeFile(file, pdf);
    const out = async (tool: string, ...args: string[]) =>
      (await run(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])])).stdout;
    const [text, fonts, info, structure] = await Promise.all([
      out('pdftotext', '-layout', '-enc', 'UTF-8'),
      out('pdffonts'),
      out('pdfinfo'),
      out('pdfinfo', '-struct'),
    ]);
    return { text, fonts: fontRows(fonts), info, structure };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** pdffonts' table as rows: name, type, whether embedded. */
function fontRows(table: string) {
  const lines = table.split('\n');
  const rule = lines.findIndex((l) => l.startsWith('---'));
  const columns = [...(lines[rule] ?? '').matchAll(/-+/g)].map(
    (m) => [m.index, m.index + m[0].length] as const,
  );
  return lines
    .slice(rule + 1)
    .filter(Boolean)
    .map((line) => {
      const cell = (i: number) => line.slice(columns[i]![0], columns[i]![1]).trim();
      return { name: cell(0), type: cell(1), embedded: cell(3) === 'yes' };
    });
}
