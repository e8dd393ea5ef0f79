/**
 * SMS length as networks count it (3GPP TS 23.038 / 23.040): a text all in the GSM 7-bit alphabet
 * goes as GSM-7, 160 septets in one message, 153 per part when split (each part carries a header);
 * a character from its extension table (such as € or [) takes two septets. Any other character
 * (’, …, an accent outside the alphabet, an emoji) sends the whole text as UCS-2: 70 UTF-16 units
 * in one message, 67 per part. Providers bill and deliver per part.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

/** Units (septets for GSM-7, UTF-16 units for UCS-2) in one message and in each part of a split one. */
export const SMS_LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

const gsmUnits = (ch: string): number | undefined =>
  GSM_BASIC.includes(ch) ? 1 : GSM_EXTENSION.includes(ch) ? 2 : undefined;

/** GSM-7 when every character is in the alphabet (or its extension), else UCS-2. */
export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) if (gsmUnits(ch) === undefined) return 'UCS-2';
  return 'GSM-7';
}

/** Units `text` takes in `encoding`. */
export function smsUnits(text: string, encoding: SmsEncoding = smsEncoding(text)): number {
  if (encoding === 'UCS-2') return text.length;
  let units = 0;
  for (const ch of text) units += gsmUnits(ch) ?? 1;
  return units;
}

/** How a text goes out: its encoding, its units and how many messages (parts) it takes. */
export function smsSegments(text: string): { encoding: SmsEncoding; units: number; segments: number } {
  const encoding = smsEncoding(text);
  const units = smsUnits(text, encoding);
  const { single, part } = SMS_LIMITS[encoding];
  return { encoding, units, segments: units === 0 ? 1 : units <= single ? 1 : Math.ceil(units / part) };
}

/** Units available to a text of `segments` parts. */
export const smsRoom = (encoding: SmsEncoding, segments: number): number =>
  segments <= 1 ? SMS_LIMITS[encoding].single : SMS_LIMITS[encoding].part * segments;

/**
 * `text` cut to at most `max` units in `encoding`, ending with an ellipsis when cut ("..." in
 * GSM-7, whose alphabet has no "…"); never splits a surrogate pair.
 */
export function cutToUnits(text: string, max: number, encoding: SmsEncoding): string {
  if (smsUnits(text, encoding) <= max) return text;
  const ellipsis = encoding === 'GSM-7' ? '...' : '…';
  const room = Math.max(0, max - smsUnits(ellipsis, encoding));
  let kept = '';
  let units = 0;
  for (const ch of text) {
    const more = smsUnits(ch, encoding);
    if (units + more > room) break;
    kept += ch;
    units += more;
  }
  return `${kept}${ellipsis}`;
}
