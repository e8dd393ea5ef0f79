import { render, screen } from '@testing-library/react';
import type { AuditEntry } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { AuditRow } from '@/features/admin/components/audit/audit-rows.tsx';

const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  id: '1',
  at: '2026-11-25T10:00:00.000Z',
  action: 'sign-in',
  outcome: 'success',
  actorId: 'u1',
  actorName: 'carer1',
  targetType: 'device',
  targetId: 'd1',
  targetName: null,
  ip: '127.0.0.1',
  detail: {},
  ...fields,
});

const rowOf = (e: AuditEntry) => {
  render(
    <table>
      <tbody>
        <AuditRow entry={e} />
      </tbody>
    </table>,
  );
  return screen.getByRole('row');
};

describe('audit log rows', () => {
  it('name an alarm-settings change and each setting it changed in words', () => {
    const row = rowOf(
      entry({
        action: 'alarm-settings-change',
        detail: { 'conditions.LOW_SPO2.limit': '95 → 93', 'escalation.repeatEveryMinutes': '2 → 5' },
      }),
    );
    expect(row).toHaveTextContent('Alarm settings changed');
    expect(row).toHaveTextContent('Low blood oxygen alarm limit: 95 → 93, Repeat every (min): 2 → 5');
  });

  it('show an unassignment, a rename and a refused admin route as such', () => {
    expect(rowOf(entry({ action: 'device-unassign', detail: { users: 'u2' } }))).toHaveTextContent(
      'Device removed from a userSucceeded',
    );
    document.body.innerHTML = '';
    expect(rowOf(entry({ action: 'device-rename', detail: { from: 'Old', to: 'New' } }))).toHaveTextContent(
      'From: Old, To: New',
    );
    document.body.innerHTML = '';
    const refused = rowOf(
      entry({
        action: 'access-denied',
        outcome: 'failure',
        targetType: null,
        detail: { route: 'POST /api/v1/admin/delete-user/:id', role: 'user' },
      }),
    );
    expect(refused).toHaveTextContent('Admin page or action refusedFailed');
    expect(refused).toHaveTextContent('Route: POST /api/v1/admin/delete-user/:id, Role: user');
  });
});
