import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const run = promisify(execFile);
const DPI = 150;
/** The label sheet's grid (server labels-pdf.ts): A4, 36 pt margins, 3 columns × 4 rows. */
const SHEET = { width: 595.28, height: 841.89, margin: 36, columns: 3, rows: 4, qrBand: 140 };

/** Every page of the PDF as pixels (poppler's pdftoppm, as a printer would rasterise it). */
async function pages(pdf: Buffer): Promise<PNG[]> {
  const dir = await mkdtemp(join(tmpdir(), 'vitalwatch-labels-'));
  try {
    await writeFile(join(dir, 'labels.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', String(DPI), join(dir, 'labels.pdf'), join(dir, 'page')]);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    return Promise.all(files.map(async (f) => PNG.sync.read(await readFile(join(dir, f)))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The QR code of each label cell of a page, in reading order (null where a cell has none). */
function decodeCells(page: PNG): (string | null)[] {
  const scale = DPI / 72;
  const cellW = ((SHEET.width - 2 * SHEET.margin) / SHEET.columns) * scale;
  const cellH = ((SHEET.height - 2 * SHEET.margin) / SHEET.rows) * scale;
  return Array.from({ length: SHEET.columns * SHEET.rows }, (_, i) => {
    const x0 = Math.round(SHEET.margin * scale + (i % SHEET.columns) * cellW);
    const y0 = Math.round(SHEET.margin * scale + Math.floor(i / SHEET.columns) * cellH);
    const w = Math.round(cellW);
    const h = Math.round(SHEET.qrBand * scale);
    const pixels = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++) {
      const from = ((y0 + y) * page.width + x0) * 4;
      pixels.set(page.data.subarray(from, from + w * 4), y * w * 4);
    }
    return jsQR(pixels, w, h)?.data ?? null;
  });
}

/** The text of every QR code on a label sheet, page by page, cells in reading order (empty cells left out). */
export async function labelQrCodes(pdf: Buffer): Promise<string[]> {
  return (await pages(pdf)).flatMap((page) => decodeCells(page).filter((c): c is string => c !== null));
}
