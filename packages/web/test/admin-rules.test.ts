import { describe, expect, it } from 'vitest';
import { assignedUsersLabel, usernamesOf } from '@/features/admin/utils/assigned-users.ts';
import { removeById, upsertById } from '@/features/admin/utils/list-updates.ts';
import { OVERALL_TEXT, STATUS_STYLES } from '@/features/admin/utils/system-status.ts';
import {
  canAddUser,
  canResetPassword,
  canUpdateUser,
  EMPTY_USER_FORM,
  passwordsMatch,
} from '@/features/admin/utils/user-form.ts';
import { dayLabel, growthSummary } from '@/features/admin/utils/user-growth.ts';
import { formatDateTime } from '@/lib/format-date.ts';

describe('assign-users label', () => {
  it('shows at most two usernames, then ...', () => {
    expect(assignedUsersLabel([])).toBe('Select users');
    expect(assignedUsersLabel(['ada'])).toBe('ada');
    expect(assignedUsersLabel(['ada', 'alan'])).toBe('ada, alan');
    expect(assignedUsersLabel(['ada', 'alan', 'grace'])).toBe('ada, alan...');
    expect(assignedUsersLabel(['a', 'b', 'c', 'd', 'e'])).toBe('a, b...');
  });

  it('maps ids to usernames in order, skipping unknown ids', () => {
    const names = new Map([
      ['1', 'ada'],
      ['2', 'alan'],
    ]);
    expect(usernamesOf(['2', 'x', '1'], names)).toEqual(['alan', 'ada']);
  });
});

describe('dates', () => {
  it('formats Created in en-US: short month, numeric day and year, 2-digit hour and minute', () => {
    expect(formatDateTime('2026-01-05T09:07:00.000Z', 'UTC')).toBe('Jan 5, 2026, 09:07 AM');
    expect(formatDateTime('2026-11-21T21:45:00.000Z', 'UTC')).toBe('Nov 21, 2026, 09:45 PM');
    expect(formatDateTime('2026-11-21T21:45:00.000Z', 'Asia/Tokyo')).toBe('Nov 22, 2026, 06:45 AM');
  });

  it('labels a growth day as given, whatever the browser zone', () => {
    expect(dayLabel('2026-03-02')).toBe('Mon, Mar 2');
  });
});

describe('form rules', () => {
  const filled = { fullName: 'Ada', username: 'ada', email: 'ada@example.com', role: 'user' as const };

  it('Add User needs every text field and both passwords', () => {
    expect(canAddUser(filled, { password: 'p', confirm: 'p' })).toBe(true);
    expect(canAddUser(EMPTY_USER_FORM, { password: 'p', confirm: 'p' })).toBe(false);
    expect(canAddUser({ ...filled, email: '  ' }, { password: 'p', confirm: 'p' })).toBe(false);
    expect(canAddUser(filled, { password: 'p', confirm: '' })).toBe(false);
    expect(canAddUser(filled, { password: '', confirm: 'p' })).toBe(false);
  });

  it('Update User needs full name, username and email', () => {
    expect(canUpdateUser(filled)).toBe(true);
    expect(canUpdateUser({ ...filled, fullName: '' })).toBe(false);
    expect(canUpdateUser({ ...filled, username: '' })).toBe(false);
  });

  it('Reset Password needs both fields; matching is checked separately', () => {
    expect(canResetPassword({ password: 'a', confirm: 'b' })).toBe(true);
    expect(canResetPassword({ password: 'a', confirm: '' })).toBe(false);
    expect(passwordsMatch({ password: 'a', confirm: 'b' })).toBe(false);
    expect(passwordsMatch({ password: 'Same1234', confirm: 'Same1234' })).toBe(true);
  });
});

describe('status colours and texts', () => {
  it('paints operational green, degraded yellow and outage red', () => {
    expect(STATUS_STYLES.operational.dot).toMatch(/green/);
    expect(STATUS_STYLES.degraded.dot).toMatch(/yellow/);
    expect(STATUS_STYLES.outage.dot).toMatch(/red/);
  });

  it('says the spec texts for the overall status', () => {
    expect(OVERALL_TEXT).toEqual({
      operational: 'All systems operational',
      degraded: 'Partial system degradation',
      outage: 'System outage in progress',
    });
  });
});

describe('user growth', () => {
  it('sums the window and averages per day', () => {
    const days = [0, 1, 0, 3, 0, 0, 1].map((users, i) => ({ date: `2026-01-0${i + 1}`, users }));
    expect(growthSummary(days)).toEqual({ total: 5, averageDaily: 0.7 });
    expect(growthSummary([])).toEqual({ total: 0, averageDaily: 0 });
  });
});

describe('list updates', () => {
  it('appends, replaces by id and removes by id', () => {
    const a = { _id: 'a', n: 1 };
    const b = { _id: 'b', n: 2 };
    expect(upsertById([a], b)).toEqual([a, b]);
    expect(upsertById([a, b], { _id: 'a', n: 9 })).toEqual([{ _id: 'a', n: 9 }, b]);
    expect(removeById([a, b], 'a')).toEqual([b]);
  });
});
