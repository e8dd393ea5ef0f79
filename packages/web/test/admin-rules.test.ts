import type { AdminDevice } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { assignedUsersLabel, filterDevices, usernamesOf } from '@/features/admin/utils/assigned-users.ts';
import { filterUsers } from '@/features/admin/utils/filter-users.ts';
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

const people = [
  { fullName: 'Ada Lovelace', username: 'ada', email: 'ada@example.com', role: 'admin' as const },
  { fullName: 'Alan Turing', username: 'alan', email: 'turing@math.org', role: 'user' as const },
  { fullName: 'Grace Hopper', username: 'grace', email: 'grace@navy.mil', role: 'user' as const },
];

describe('user search', () => {
  it('keeps everyone for an empty or blank query', () => {
    expect(filterUsers(people, '')).toHaveLength(3);
    expect(filterUsers(people, '   ')).toHaveLength(3);
  });

  it('matches the name, email or role, ignoring case and surrounding spaces', () => {
    expect(filterUsers(people, 'HOPPER').map((u) => u.username)).toEqual(['grace']);
    expect(filterUsers(people, ' math.org ').map((u) => u.username)).toEqual(['alan']);
    expect(filterUsers(people, 'admin').map((u) => u.username)).toEqual(['ada']);
    expect(filterUsers(people, 'user').map((u) => u.username)).toEqual(['alan', 'grace']);
    expect(filterUsers(people, 'al').map((u) => u.username)).toEqual(['alan']);
  });

  it('finds nobody for a query nothing contains', () => {
    expect(filterUsers(people, 'zzz')).toEqual([]);
  });
});

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

  it('filters devices by name or assigned username', () => {
    const device = (id: string, deviceName: string, users: string[]) =>
      ({ _id: id, deviceName, users }) as AdminDevice;
    const devices = [device('d1', 'Wrist band', ['1']), device('d2', 'Ring', ['2'])];
    const names = new Map([
      ['1', 'ada'],
      ['2', 'alan'],
    ]);
    expect(filterDevices(devices, 'ring', names).map((d) => d._id)).toEqual(['d2']);
    expect(filterDevices(devices, 'ADA', names).map((d) => d._id)).toEqual(['d1']);
    expect(filterDevices(devices, '', names)).toHaveLength(2);
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
