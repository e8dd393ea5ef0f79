/**
 * One CSV line (RFC 4180): a field holding a comma, quote or line break is quoted, quotes doubled.
 * Lines end with CRLF. Text a spreadsheet could run as a formula is defused (see `defused`);
 * numbers and timestamps are written as they are.
 */
export function csvLine(fields: readonly (string | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * Where a spreadsheet may begin a cell inside a field: its start, or after a character some
 * importer splits on (`,` `;` tab `|`, a line break), past any spaces or quotes. A field's own
 * quotes protect it only from an importer that splits on our comma: one set to `;` (the default
 * where the comma is the decimal mark) opens `x;=HYPERLINK(…)` as two cells, the second a formula.
 */
const CELL_START = /(?<=(?:^|[,;\t|\r\n])[\s"']*)[=+\-@][^,;\t|\r\n]*/g;

/**
 * OWASP's CSV injection advice: no cell may begin with = + - @, tab or carriage return. An
 * apostrophe (a spreadsheet's "this is text") goes before every such start, wherever a cell could
 * begin, and before a field that begins with tab or CR. A piece that is a number and nothing else (a
 * temperature of -3.2, `1;-2`) is left as it is: split off, it is a number, never a formula.
 */
function defused(value: string): string {
  const pieces = value.replace(CELL_START, (piece) => (NUMBER.test(piece) ? piece : `'${piece}`));
  return /^[\t\r]/.test(pieces) ? `'${pieces}` : pieces;
}

function csvField(value: string | null | undefined): string {
  if (value == null) return '';
  const safe = defused(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
