import type { AdminDevice, AdminUser, CreateTeamBody, Team, TeamRole } from '@vitalwatch/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '@/components/form-actions.tsx';
import { TextField } from '@/components/form-field.tsx';
import { Modal } from '@/components/modal.tsx';
import { Checklist } from './checklist.tsx';

interface TeamFormModalProps {
  /** The team being edited; none for 'New Team'. */
  team?: Team;
  devices: readonly AdminDevice[];
  users: readonly AdminUser[];
  onClose: () => void;
  /** Sends the form; resolves true when saved (the page then closes the modal). */
  onSubmit: (input: CreateTeamBody) => Promise<boolean>;
}

/** 'New Team' and 'Edit Team': a name, the devices it holds, its users and each one's contact role. */
export function TeamFormModal({ team, devices, users, onClose, onSubmit }: TeamFormModalProps) {
  const [name, setName] = useState(team?.name ?? '');
  const [deviceIds, setDeviceIds] = useState(() => new Set(team?.deviceIds ?? []));
  const [roles, setRoles] = useState(() => new Map(team?.members.map((m) => [m.userId, m.role] as const)));
  const [busy, setBusy] = useState(false);
  const nameFilled = name.trim() !== '';

  const toggleDevice = (id: string, checked: boolean) =>
    setDeviceIds((s) => {
      const next = new Set(s);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const setRole = (id: string, role: TeamRole | null) =>
    setRoles((m) => {
      const next = new Map(m);
      if (role) next.set(id, role);
      else next.delete(id);
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!nameFilled || busy) return;
    setBusy(true);
    const members = [...roles].map(([userId, role]) => ({ userId, role }));
    const saved = await onSubmit({ name: name.trim(), deviceIds: [...deviceIds], members });
    if (!saved) setBusy(false);
  };

  return (
    <Modal
      open
      title={team ? 'Edit Team' : 'New Team'}
      description="Every user of the team sees every device of the team, as if assigned to it."
      onClose={busy ? () => {} : onClose}
      size="max-w-xl"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Team Name"
          autoComplete="off"
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Checklist
          legend="Devices"
          items={devices}
          idOf={(d) => d._id}
          labelOf={(d) => d.deviceName}
          selected={deviceIds}
          onToggle={toggleDevice}
        />
        <Checklist
          legend="Users"
          items={users}
          idOf={(u) => u._id}
          labelOf={(u) => `${u.username} (${u.fullName})`}
          selected={new Set(roles.keys())}
          onToggle={(id, checked) => setRole(id, checked ? 'primary' : null)}
          extra={(u) => (
            <select
              aria-label={`Contact role of ${u.username}`}
              value={roles.get(u._id)}
              onChange={(e) => setRole(u._id, e.target.value === 'backup' ? 'backup' : 'primary')}
              className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            >
              <option value="primary">Primary</option>
              <option value="backup">Backup</option>
            </select>
          )}
        />
        <FormActions
          className="pt-2"
          onCancel={onClose}
          submitLabel={team ? 'Update Team' : 'Create Team'}
          busyLabel="Saving..."
          busy={busy}
          disabled={!nameFilled}
        />
      </form>
    </Modal>
  );
}
