import { describe, expect, it } from 'vitest';
import { keepReturn, returnPath } from '@/lib/return-path.ts';

describe('returnPath: where sign-in goes back to (an invitation link)', () => {
  it('takes a path of this app', () => {
    expect(returnPath('?next=%2Finvitation%2Fabc')).toBe('/invitation/abc');
    expect(keepReturn('?next=%2Finvitation%2Fabc')).toBe('?next=%2Finvitation%2Fabc');
    expect(returnPath('?next=%2Fdashboard%2Fdevices%3Fclaim%3DAB12%23add')).toBe(
      '/dashboard/devices?claim=AB12#add',
    );
  });

  it('never another site, and nothing without ?next=', () => {
    for (const search of [
      '?next=%2F%2Fevil.example',
      '?next=https%3A%2F%2Fevil.example',
      // A browser reads a backslash as a slash: `/\evil.example` is `//evil.example`.
      '?next=%2F%5Cevil.example',
      '?next=%2F%5C%2Fevil.example',
      // Tabs and line breaks are dropped from a URL before it is read.
      '?next=%2F%09%2Fevil.example',
      '?next=%2F%0A%2Fevil.example',
      '?next=',
      '',
    ]) {
      expect(returnPath(search)).toBeNull();
      expect(keepReturn(search)).toBe('');
    }
  });
});
