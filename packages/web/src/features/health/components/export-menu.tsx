import { contracts, EXPORT_MAX_RANGE_DAYS, type ExportResolution } from '@vitalwatch/shared';
import { useId, useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { downloadContract } from '@/lib/call-contract.ts';
import { formatDay } from '@/lib/format-date.ts';
import { saveDownload } from '@/lib/save-download.ts';

const RESOLUTIONS: { id: ExportResolution; label: string }[] = [
  { id: 'raw', label: 'Every reading' },
  { id: 'minute', label: 'Per minute (min, average, max)' },
  { id: 'hour', label: 'Per hour (min, average, max)' },
];
const MAX_MS = EXPORT_MAX_RANGE_DAYS * 86_400_000;

/**
 * "Export" for the period on screen: a PDF report for the doctor, or CSV of the readings (every
 * one, or per minute or hour) or the alerts for a spreadsheet. Longer periods are cut to their
 * last 90 days.
 */
export function ExportMenu({ deviceId, window }: { deviceId: string; window: { from: number; to: number } }) {
  const [resolution, setResolution] = useState<ExportResolution>('raw');
  const [busy, setBusy] = useState<'readings' | 'alerts' | 'report' | null>(null);
  const selectId = useId();
  const from = Math.max(window.from, window.to - MAX_MS);
  const period = { from: new Date(from).toISOString(), to: new Date(window.to).toISOString() };

  const download = async (kind: 'readings' | 'alerts' | 'report') => {
    setBusy(kind);
    try {
      const params = { deviceId };
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      const file =
        kind === 'readings'
          ? downloadContract(contracts.export.readings, { params, query: { ...period, resolution } })
          : kind === 'report'
            ? downloadContract(contracts.export.report, { params, query: { ...period, timeZone } })
            : downloadContract(contracts.export.alerts, { params, query: period });
      saveDownload(await file);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to export the data'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <details className="group relative">
      <summary className="inline-flex cursor-pointer list-none items-center rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800">
        Export
      </summary>
      <div className="absolute left-0 z-20 mt-2 w-72 sm:right-0 sm:left-auto max-w-[calc(100vw-2rem)] space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <p className="text-slate-600 dark:text-slate-400">
          {formatDay(from)} – {formatDay(window.to)}
        </p>
        <Button size="sm" className="w-full" disabled={busy !== null} onClick={() => void download('report')}>
          {busy === 'report' ? 'Preparing...' : 'PDF report for the doctor'}
        </Button>
        <div className="space-y-1.5">
          <label htmlFor={selectId} className="block font-medium text-slate-700 dark:text-slate-200">
            Readings in the CSV
          </label>
          <select
            id={selectId}
            value={resolution}
            onChange={(event) =>
              setResolution(RESOLUTIONS.find((r) => r.id === event.target.value)?.id ?? 'raw')
            }
            className="block w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            {RESOLUTIONS.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={busy !== null}
            onClick={() => void download('readings')}
          >
            {busy === 'readings' ? 'Exporting...' : 'Readings CSV'}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={busy !== null}
            onClick={() => void download('alerts')}
          >
            {busy === 'alerts' ? 'Exporting...' : 'Alerts CSV'}
          </Button>
        </div>
      </div>
    </details>
  );
}
