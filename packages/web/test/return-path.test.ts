import { describe, expect, it } from 'vitest';
import { keepReturn, returnPath } from '@/lib/return-path.ts';

describe('returnPath: where sign-in goes back to (an invitation link)', () => {
  it('takes a path of this app', () => {
    expect(returnPath('?next=%2Finvitation%2Fabc')).toBe('/invitation/abc');
    expect(keepReturn('?next=%2Finvitation%2Fabc')).toBe('?next=%2Finvitation%2Fabc');
  });

  it('never another site, and nothing without ?next=', () => {
    for (const search of ['?next=%2F%2Fevil.example', '?next=https%3A%2F%2Fevil.example', '?next=', '']) {
      expect(returnPath(search)).toBeNull();
      expect(keepReturn(search)).toBe('');
    }
  });
});
