import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Font, create as openFont } from 'fontkit';

/**
 * The PDFs' fonts (the health report, the device labels): DejaVu Sans (npm `dejavu-fonts-ttf`, Bitstream Vera licence with DejaVu's
 * changes in the public domain), embedded as subsets. Unlike the standard PDF fonts, which are not
 * embedded and write WinAnsi only, they cover Latin (with its extensions), Greek, Cyrillic,
 * Armenian and Georgian, so names such as "Zoë Ωμέγα Юлия" print as typed.
 */
export const REPORT_FONT = { regular: 'Sans', bold: 'Sans-Bold' } as const;

const FILES = {
  [REPORT_FONT.regular]: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  [REPORT_FONT.bold]: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
};

interface LoadedFont {
  bytes: Buffer;
  glyphs: Font;
}
let loaded: Record<string, LoadedFont> | undefined;

/** The font files, read and parsed once per process. */
function fonts(): Record<string, LoadedFont> {
  if (!loaded) {
    const resolve = createRequire(import.meta.url).resolve;
    loaded = Object.fromEntries(
      Object.entries(FILES).map(([name, file]) => {
        const bytes = readFileSync(resolve(file));
        const glyphs = openFont(bytes);
        if (!('hasGlyphForCodePoint' in glyphs)) throw new Error(`${file} is a font collection`);
        return [name, { bytes, glyphs }];
      }),
    );
  }
  return loaded;
}

/** Makes REPORT_FONT's names usable in `doc`. */
export function registerReportFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, font] of Object.entries(fonts())) doc.registerFont(name, font.bytes);
}

/**
 * `text` with every character that either report font lacks (emoji, scripts beyond the ones above)
 * replaced by '?', so nothing prints as an empty box or extracts as the wrong character.
 */
export function printable(text: string): string {
  const all = Object.values(fonts());
  return Array.from(text, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || !all.every((f) => f.glyphs.hasGlyphForCodePoint(code)) ? '?' : char;
  }).join('');
}
