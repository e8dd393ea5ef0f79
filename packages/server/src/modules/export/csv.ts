/**
 * One CSV line (RFC 4180): a field holding a comma, quote or line break is quoted, quotes doubled.
 * Text that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return:
 * OWASP's CSV injection advice) gets a leading apostrophe; numbers and timestamps are written as
 * they are. Lines end with CRLF.
 */
export function csvLine(fields: readonly (string | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

function csvField(value: string | null | undefined): string {
  if (value == null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) && !NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
