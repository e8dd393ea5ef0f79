import { REPORT_FONT } from '../../lib/pdf-fonts.ts';

/**
 * Tagged building blocks of the report: each piece of text is drawn inside the structure element
 * a screen reader announces (heading, paragraph, table cell), and what only decorates (rules,
 * headers repeated on a new page) is marked as an artifact, which readers skip.
 */
export const MARGIN = 40;
export const WIDTH = 595.28 - 2 * MARGIN; // A4
export const GREY = '#555555';

type Parent = PDFKit.PDFStructureElement;

declare global {
  namespace PDFKit.Mixins {
    interface StructureElementOptions {
      /** A TH's Table attribute Scope: PDFKit writes it, its type definitions leave it out. */
      scope?: 'Row' | 'Column' | 'Both';
    }
  }
}

/** Draws `draw` as an artifact: decoration, or a repetition for the page (type Pagination). */
export function artifact(
  doc: PDFKit.PDFDocument,
  draw: () => void,
  type: 'Layout' | 'Pagination' = 'Layout',
) {
  doc.markContent('Artifact', { type });
  draw();
  doc.endMarkedContent();
}

/** A heading of `level` (1: the title, 2: a section, 3: a chart). */
export function heading(doc: PDFKit.PDFDocument, parent: Parent, level: 1 | 2 | 3, text: string) {
  const size = { 1: 18, 2: 13, 3: 10 }[level];
  parent.add(
    doc.struct(`H${level}`, {}, () => {
      doc.font(REPORT_FONT.bold).fontSize(size).fillColor('black').text(text);
    }),
  );
}

/** A paragraph in the regular font. */
export function paragraph(
  doc: PDFKit.PDFDocument,
  parent: Parent,
  text: string,
  style: { size?: number; color?: string } = {},
) {
  parent.add(
    doc.struct('P', {}, () => {
      doc
        .font(REPORT_FONT.regular)
        .fontSize(style.size ?? 11)
        .fillColor(style.color ?? 'black')
        .text(text);
    }),
  );
  doc.fillColor('black');
}

/**
 * A plain table (Table, TR, TH / TD): a bold header row, rows with thin rules, new pages as needed,
 * where the header row is drawn again as a Pagination artifact.
 */
export function table(
  doc: PDFKit.PDFDocument,
  parent: Parent,
  head: string[],
  rows: string[][],
  widths: number[],
) {
  const element = doc.struct('Table');
  parent.add(element);
  const heightOf = (cells: string[], bold: boolean) => {
    doc.font(bold ? REPORT_FONT.bold : REPORT_FONT.regular).fontSize(8.5);
    return Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: widths[i]! - 4 }))) + 4;
  };
  /** Draws a row: each cell through `cell` (to tag it), then its rule through `rule`. */
  const drawRow = (
    cells: string[],
    bold: boolean,
    cell: (draw: () => void) => void,
    rule: (draw: () => void) => void,
  ) => {
    const height = heightOf(cells, bold);
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((text, i) => {
      const left = x;
      cell(() => {
        doc
          .font(bold ? REPORT_FONT.bold : REPORT_FONT.regular)
          .fontSize(8.5)
          .fillColor('black');
        doc.text(text, left + 2, y + 2, { width: widths[i]! - 4 });
      });
      x += widths[i]!;
    });
    rule(() => {
      doc
        .moveTo(MARGIN, y + height)
        .lineTo(MARGIN + WIDTH, y + height)
        .lineWidth(0.3)
        .strokeColor(GREY)
        .stroke();
    });
    doc.x = MARGIN;
    doc.y = y + height;
  };
  const tagged = (cells: string[], bold: boolean) => {
    const row = doc.struct('TR');
    element.add(row);
    drawRow(
      cells,
      bold,
      (draw) => row.add(bold ? doc.struct('TH', { scope: 'Column' }, draw) : doc.struct('TD', {}, draw)),
      (draw) => artifact(doc, draw),
    );
    row.end();
  };
  tagged(head, true);
  for (const cells of rows) {
    if (doc.y + heightOf(cells, false) > doc.page.height - MARGIN) {
      doc.addPage();
      // The header again, for the eye only: the table's header row was read once already.
      artifact(
        doc,
        () =>
          drawRow(
            head,
            true,
            (draw) => draw(),
            (draw) => draw(),
          ),
        'Pagination',
      );
    }
    tagged(cells, false);
  }
  element.end();
  doc.strokeColor('black');
}
