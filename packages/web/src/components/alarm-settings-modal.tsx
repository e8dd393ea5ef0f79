import {
  type AlarmSettings,
  alarmSettings,
  ESCALATION_BOUNDS,
  type EscalationSettings,
  TOASTS,
  VITAL_ALARM_TYPES,
  type VitalAlarmType,
} from '@vitalwatch/shared';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { getAlarmSettings, updateAlarmSettings } from '@/lib/alarm-settings.ts';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import {
  CONDITION_FIELDS,
  ConditionCard,
  type ConditionField,
  type Errors,
  NumberField,
} from './alarm-setting-fields.tsx';
import { Button } from './button.tsx';
import { FormActions } from './form-actions.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';

const ESCALATION_FIELDS: {
  key: keyof EscalationSettings;
  label: string;
  meaning: string;
  unit: 'minutes' | 'seconds';
}[] = [
  {
    key: 'repeatEveryMinutes',
    label: 'Repeat every',
    meaning: 'how often the alert is sent again',
    unit: 'minutes',
  },
  {
    key: 'repeatForMinutes',
    label: 'Repeat for',
    meaning: 'how long it keeps being sent again',
    unit: 'minutes',
  },
  {
    key: 'backupAfterMinutes',
    label: 'Backup contacts after',
    meaning: 'when the backup contacts are told as well',
    unit: 'minutes',
  },
  {
    key: 'fallbackAfterSeconds',
    label: 'Next channel after',
    meaning: 'a contact whose devices did not show the alert is tried by SMS, e-mail, webhook',
    unit: 'seconds',
  },
];

/** Field errors by path ("conditions.LOW_SPO2.limit"), from the shared schema or the server's issues. */
function issuesByPath(issues: readonly { path: string; message: string }[]): Errors {
  const out: Errors = {};
  for (const i of issues) out[i.path.replace(/^settings\./, '')] ??= i.message;
  return out;
}

interface AlarmSettingsModalProps {
  /** The device whose alarms are shown; null when closed. */
  device: { _id: string; deviceName: string } | null;
  onClose: () => void;
}

/**
 * The device's alarm conditions (when a vital raises an alert: limit, critical level, delay,
 * hysteresis) and escalation timings, each explained in words and within the safe bounds the
 * server enforces too. Everyone assigned to the device (My Devices) and admins (Device Management)
 * see them; only the device's owner and admins change them, anyone else sees them read only.
 */
export function AlarmSettingsModal({ device, onClose }: AlarmSettingsModalProps) {
  const [draft, setDraft] = useState<AlarmSettings | null>(null);
  const [defaults, setDefaults] = useState<AlarmSettings | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [canChange, setCanChange] = useState(false);

  useEffect(() => {
    setDraft(null);
    setErrors({});
    setFailure(null);
    if (!device) return;
    const controller = new AbortController();
    getAlarmSettings(device._id, controller.signal).then(
      (view) => {
        setDraft(view.settings);
        setDefaults(view.defaults);
        setCanChange(view.canChange);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(errorMessage(error, TOASTS.alarmSettingsFetchFailed));
      },
    );
    return () => controller.abort();
  }, [device]);

  const setCondition = (type: VitalAlarmType, key: ConditionField, value: number) =>
    setDraft(
      (d) => d && { ...d, conditions: { ...d.conditions, [type]: { ...d.conditions[type], [key]: value } } },
    );
  const setEscalation = (key: keyof EscalationSettings, value: number) =>
    setDraft((d) => d && { ...d, escalation: { ...d.escalation, [key]: value } });

  const save = async () => {
    if (!device || !draft) return;
    const checked = alarmSettings.safeParse(draft);
    if (!checked.success) {
      setErrors(
        issuesByPath(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))),
      );
      return;
    }
    setErrors({});
    setFailure(null);
    setSaving(true);
    try {
      const saved = await updateAlarmSettings(device._id, checked.data);
      setDraft(saved.settings);
      toast.success(TOASTS.alarmSettingsSaved);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) setErrors(issuesByPath(error.issues));
      const message = errorMessage(error, TOASTS.alarmSettingsFailed);
      setFailure(message);
      toast.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={device !== null}
      onClose={onClose}
      size="max-w-3xl"
      title={`Alarm settings${device ? ` · ${device.deviceName}` : ''}`}
      description="When a reading becomes an alert. The cards always show the normal ranges."
    >
      {!draft && !failure && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Spinner className="size-4" /> Loading alarm settings…
        </p>
      )}
      {draft && (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          className="space-y-5"
        >
          {!canChange && (
            <p
              data-testid="alarm-settings-read-only"
              className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100"
            >
              Only the device's owner or an admin can change these settings. You can see them here.
            </p>
          )}
          <details className="text-sm text-slate-700 dark:text-slate-300">
            <summary className="cursor-pointer font-medium">What each setting means</summary>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {CONDITION_FIELDS.map((f) => (
                <li key={f.key}>
                  <strong>{f.label}</strong>: {f.meaning}
                </li>
              ))}
            </ul>
          </details>
          <div className="grid gap-3 sm:grid-cols-2">
            {VITAL_ALARM_TYPES.map((type) => (
              <ConditionCard
                key={type}
                type={type}
                settings={draft}
                errors={errors}
                onChange={canChange ? (key, value) => setCondition(type, key, value) : null}
              />
            ))}
          </div>
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-semibold text-slate-900 dark:text-white">
              Escalation of unacknowledged high-priority alerts (minutes)
            </legend>
            {ESCALATION_FIELDS.map((f) => (
              <div
                key={f.key}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm"
              >
                <span className="text-slate-700 dark:text-slate-200">
                  <span aria-hidden="true" className="font-medium">
                    {f.label}
                  </span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">{f.meaning}</span>
                </span>
                <NumberField
                  path={`escalation.${f.key}`}
                  label={`${f.label} (${f.unit})`}
                  unit={f.unit === 'minutes' ? 'min' : 's'}
                  value={draft.escalation[f.key]}
                  bounds={ESCALATION_BOUNDS[f.key]}
                  error={errors[`escalation.${f.key}`]}
                  onChange={canChange ? (v) => setEscalation(f.key, v) : null}
                />
              </div>
            ))}
          </fieldset>
          {failure && <FormError message={failure} />}
          {canChange ? (
            <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
              <Button
                variant="ghost"
                size="sm"
                disabled={!defaults}
                onClick={() => defaults && setDraft(defaults)}
              >
                Reset to defaults
              </Button>
              <FormActions onCancel={onClose} busy={saving} submitLabel="Save" busyLabel="Saving..." />
            </div>
          ) : (
            <div className="flex justify-end pt-2">
              <Button variant="secondary" onClick={onClose}>
                Close
              </Button>
            </div>
          )}
        </form>
      )}
      {!draft && failure && <FormError message={failure} />}
    </Modal>
  );
}
