import { describe, expect, it } from 'vitest';
import { alertEvent } from '../src/index.ts';

const issuesOf = (event: object) =>
  alertEvent
    .safeParse({ alertType: 'FALL', ...event })
    .error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('device alert texts', () => {
  it.each([
    ['right-to-left override', '\u202E'],
    ['left-to-right embedding', '\u202A'],
    ['first-strong isolate', '\u2068'],
    ['right-to-left mark (invisible)', '\u200F'],
    ['Arabic letter mark (invisible)', '\u061C'],
    ['NUL', '\u0000'],
  ])('refuse a %s in the title and the message, naming the field', (_name, char) => {
    expect(issuesOf({ alertTitle: `Fall${char}detected` })).toEqual([
      ['alertTitle', 'alertTitle must not contain control or text-direction characters'],
    ]);
    expect(issuesOf({ alertMessage: `Help ${char}pressed` })).toEqual([
      ['alertMessage', 'alertMessage must not contain control or text-direction characters'],
    ]);
  });

  it('accept other scripts, emoji with joiners, and line breaks and tabs in the message only', () => {
    const event = {
      alertTitle: 'سقوط 👨‍👩‍👧 chute',
      alertMessage: 'Line one\r\n\tLine two',
    };
    expect(alertEvent.parse({ alertType: 'SOS', ...event })).toMatchObject(event);
    expect(issuesOf({ alertTitle: 'Fall\ndetected' })).toEqual([
      ['alertTitle', 'alertTitle must not contain control or text-direction characters'],
    ]);
  });
});
