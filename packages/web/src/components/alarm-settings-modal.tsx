import {
  ALARM_BOUNDS,
  type AlarmSettings,
  alarmSettings,
  ESCALATION_BOUNDS,
  type EscalationSettings,
  TOASTS,
  VITAL_ALARM_TYPES,
  VITAL_ALARMS,
  type VitalAlarmType,
  type VitalCondition,
} from '@vitalwatch/shared';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { getAlarmSettings, updateAlarmSettings } from '@/lib/alarm-settings.ts';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { Button } from './button.tsx';
import { FormActions } from './form-actions.tsx';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';

type Errors = Record<string, string>;
type ConditionField = keyof VitalCondition;

const CONDITION_FIELDS: { key: ConditionField; label: string; unit: (t: VitalAlarmType) => string }[] = [
  { key: 'limit', label: 'Alarm limit', unit: (t) => VITAL_ALARMS[t].unit },
  { key: 'critical', label: 'Critical at', unit: (t) => VITAL_ALARMS[t].unit },
  { key: 'delaySeconds', label: 'Delay', unit: () => 's' },
  { key: 'clearMargin', label: 'Clear margin', unit: (t) => VITAL_ALARMS[t].unit },
  { key: 'clearSeconds', label: 'Clear after', unit: () => 's' },
];
const ESCALATION_FIELDS: { key: keyof EscalationSettings; label: string }[] = [
  { key: 'repeatEveryMinutes', label: 'Repeat every' },
  { key: 'repeatForMinutes', label: 'Repeat for' },
  { key: 'backupAfterMinutes', label: 'Backup contacts after' },
];

/** Field errors by path ("conditions.LOW_SPO2.limit"), from the shared schema or the server's issues. */
function issuesByPath(issues: readonly { path: string; message: string }[]): Errors {
  const out: Errors = {};
  for (const i of issues) out[i.path.replace(/^settings\./, '')] ??= i.message;
  return out;
}

interface NumberCellProps {
  path: string;
  label: string;
  unit: string;
  value: number | null;
  bounds: { min: number; max: number } | null;
  error: string | undefined;
  onChange: (value: number) => void;
}

function NumberCell({ path, label, unit, value, bounds, error, onChange }: NumberCellProps) {
  if (value === null || !bounds) return <span className="text-xs text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="block">
      <input
        type="number"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${path}-error` : undefined}
        min={bounds.min}
        max={bounds.max}
        step="any"
        value={Number.isNaN(value) ? '' : value}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        className={`w-20 rounded-md border bg-white px-2 py-1 text-sm text-slate-900 dark:bg-slate-900 dark:text-slate-100 ${
          error ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700'
        }`}
      />
      <span aria-hidden="true" className="ml-1 text-xs text-slate-600 dark:text-slate-400">
        {unit}
      </span>
      {error && (
        <span
          id={`${path}-error`}
          role="alert"
          className="mt-1 block max-w-40 text-xs text-red-700 dark:text-red-300"
        >
          {error}
        </span>
      )}
    </span>
  );
}

interface AlarmSettingsModalProps {
  /** The device whose alarms are shown; null when closed. */
  device: { _id: string; deviceName: string } | null;
  onClose: () => void;
}

/**
 * The device's alarm conditions (when a vital raises an alert: limit, critical level, delay,
 * hysteresis) and escalation timings, each within the safe bounds the server enforces too. Used by
 * the users assigned to a device (My Devices) and by admins (Device Management).
 */
export function AlarmSettingsModal({ device, onClose }: AlarmSettingsModalProps) {
  const [draft, setDraft] = useState<AlarmSettings | null>(null);
  const [defaults, setDefaults] = useState<AlarmSettings | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

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
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Alarm conditions</caption>
              <thead className="text-xs text-slate-600 dark:text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Condition
                  </th>
                  {CONDITION_FIELDS.map((f) => (
                    <th key={f.key} scope="col" className="py-2 pr-3 font-semibold">
                      {f.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {VITAL_ALARM_TYPES.map((type) => (
                  <tr key={type}>
                    <th scope="row" className="py-2 pr-3 font-medium text-slate-900 dark:text-white">
                      {VITAL_ALARMS[type].title}
                    </th>
                    {CONDITION_FIELDS.map((f) => {
                      const path = `conditions.${type}.${f.key}`;
                      return (
                        <td key={f.key} className="py-2 pr-3 align-top">
                          <NumberCell
                            path={path}
                            label={`${VITAL_ALARMS[type].title}: ${f.label} (${f.unit(type)})`}
                            unit={f.unit(type)}
                            value={draft.conditions[type][f.key]}
                            bounds={ALARM_BOUNDS[type][f.key]}
                            error={errors[path]}
                            onChange={(v) => setCondition(type, f.key, v)}
                          />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">
              Escalation of unacknowledged high-priority alerts (minutes)
            </legend>
            {ESCALATION_FIELDS.map((f) => (
              <div key={f.key} className="text-sm text-slate-700 dark:text-slate-200">
                <span aria-hidden="true" className="mb-1 block">
                  {f.label}
                </span>
                <NumberCell
                  path={`escalation.${f.key}`}
                  label={`${f.label} (minutes)`}
                  unit="min"
                  value={draft.escalation[f.key]}
                  bounds={ESCALATION_BOUNDS[f.key]}
                  error={errors[`escalation.${f.key}`]}
                  onChange={(v) => setEscalation(f.key, v)}
                />
              </div>
            ))}
          </fieldset>
          {failure && <FormError message={failure} />}
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
        </form>
      )}
      {!draft && failure && <FormError message={failure} />}
    </Modal>
  );
}
