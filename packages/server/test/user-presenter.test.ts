import { describe, expect, it } from 'vitest';
import { storedQuietHours } from '../src/modules/user/presenter.ts';

describe('storedQuietHours: quiet hours as a profile shows them', () => {
  it('passes a stored window through', () => {
    const window = { start: '22:00', end: '07:00', timeZone: 'Europe/London' };
    expect(storedQuietHours(window)).toEqual(window);
  });

  it('answers none for none stored, and for anything unreadable (alerts then always come through)', () => {
    for (const value of [
      null,
      undefined,
      'text',
      { start: '22:00', end: '22:00', timeZone: 'Europe/London' },
      { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' },
      { start: '22:00', end: '07:00' },
    ]) {
      expect(storedQuietHours(value)).toBeNull();
    }
  });
});
