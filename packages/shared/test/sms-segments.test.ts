import { describe, expect, it } from 'vitest';
import { cutToUnits, smsEncoding, smsSegments, smsUnits } from '../src/rules/sms-segments.ts';

describe('SMS segments', () => {
  it('counts a GSM-7 text in septets: 160 in one message, 153 per part beyond', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 1 });
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character (€ [ ] { } ~ ^ \\ |) as two septets', () => {
    expect(smsEncoding('€10 [x]')).toBe('GSM-7');
    expect(smsUnits('€10 [x]')).toBe(10);
    expect(smsSegments(`${'a'.repeat(159)}€`)).toMatchObject({ units: 161, segments: 2 });
  });

  it('sends a text with any character outside the alphabet as UCS-2: 70 in one, 67 per part', () => {
    expect(smsEncoding('Mum’s watch')).toBe('UCS-2');
    expect(smsEncoding('Wait…')).toBe('UCS-2');
    expect(smsEncoding('Ça va, Müller? ñ é à')).toBe('GSM-7');
    expect(smsSegments(`${'a'.repeat(69)}’`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}’`)).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    // An emoji is two UTF-16 units.
    expect(smsSegments('💓').units).toBe(2);
    expect(smsSegments('Д'.repeat(135)).segments).toBe(3);
  });

  it('cuts to a number of units with an ellipsis the encoding has, never half an emoji', () => {
    expect(cutToUnits('abcdefghij', 10, 'GSM-7')).toBe('abcdefghij');
    expect(cutToUnits('abcdefghijk', 10, 'GSM-7')).toBe('abcdefg...');
    expect(cutToUnits('€€€€€€', 7, 'GSM-7')).toBe('€€...');
    expect(cutToUnits('💓💓💓💓', 5, 'UCS-2')).toBe('💓💓…');
    expect(cutToUnits('💓💓💓💓', 4, 'UCS-2')).toBe('💓…');
  });
});
