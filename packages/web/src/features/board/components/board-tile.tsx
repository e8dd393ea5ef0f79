import {
  type AlertRecord,
  boardVitalState,
  PRIORITY_LABELS,
  readingAge,
  relativeTime,
  TEMPERATURE_SYMBOLS,
  type TemperatureUnit,
  temperatureIn,
  type Vital,
} from '@vitalwatch/shared';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { dashboardFor } from '@/lib/paths.ts';
import { TRIAGE_LEVEL_LABELS, type TriagedDevice } from '../utils/triage.ts';
import { Sparkline, sparkLabel } from './sparkline.tsx';
import { VitalCell } from './vital-cell.tsx';

const LEVEL_LOOK: Record<TriagedDevice['level'], string> = {
  'unacknowledged-high': 'border-red-700 ring-2 ring-red-600 dark:ring-red-500',
  'acknowledged-high': 'border-red-500',
  medium: 'border-amber-500',
  offline: 'border-slate-400 border-dashed',
  'low-battery': 'border-sky-500',
  normal: 'border-slate-200 dark:border-slate-700',
};

const STATUS_WORDS: Record<AlertRecord['status'], string> = {
  active: 'not acknowledged',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
};

interface BoardTileProps {
  item: TriagedDevice;
  now: number;
  unit: TemperatureUnit;
  /** Wall display: large type, no buttons. */
  large?: boolean;
  /** The acknowledge / resolve buttons of one alert (the board reuses the alert feature's). */
  alertActions?: (alert: AlertRecord) => ReactNode;
}

const fmt = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined ? '–' : v.toFixed(digits);

/** One wearer: triage level in words, four vitals with their state, age of the reading, last hour, battery, open alerts. */
export const BoardTile = memo(function BoardTile({
  item,
  now,
  unit,
  large = false,
  alertActions,
}: BoardTileProps) {
  const { device, level } = item;
  const r = device.latest;
  const state = (vital: Vital) => boardVitalState(vital, r?.[vital], r?.createdAt, device.limits, now);
  const age = readingAge(r?.createdAt, now);
  const ageText = r ? relativeTime(r.createdAt, new Date(now)) : 'No readings yet';
  const temperature =
    r?.temperature === null || r?.temperature === undefined ? null : temperatureIn(r.temperature, unit);
  const titleId = `tile-${device._id}`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="board-tile"
      data-level={level}
      className={`flex flex-col gap-2 rounded-2xl border-2 bg-white p-3 shadow-sm dark:bg-slate-900 ${LEVEL_LOOK[level]}`}
    >
      <header className="flex items-start justify-between gap-2">
        <h2
          id={titleId}
          className={`min-w-0 font-bold text-slate-900 dark:text-white ${large ? 'text-3xl' : 'text-base'}`}
        >
          <Link
            to={dashboardFor(device._id)}
            className="break-words underline-offset-2 hover:underline focus-visible:underline"
          >
            {device.deviceName}
          </Link>
        </h2>
        <span
          className={`shrink-0 rounded-full bg-slate-100 px-2 py-0.5 font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100 ${large ? 'text-lg' : 'text-xs'}`}
        >
          {TRIAGE_LEVEL_LABELS[level]}
        </span>
      </header>
      <div className="grid grid-cols-2 gap-1.5 sm:grid-cols-4">
        <VitalCell
          large={large}
          label="Heart rate"
          value={`${fmt(r?.heartRate)} BPM`}
          state={state('heartRate')}
        />
        <VitalCell large={large} label="SpO2" value={`${fmt(r?.spo2)} %`} state={state('spo2')} />
        <VitalCell
          large={large}
          label="Temperature"
          value={`${fmt(temperature, 1)} ${TEMPERATURE_SYMBOLS[unit]}`}
          state={state('temperature')}
        />
        <VitalCell large={large} label="Battery" value={`${fmt(r?.battery)} %`} state={state('battery')} />
      </div>
      <p className={`text-slate-700 dark:text-slate-300 ${large ? 'text-xl' : 'text-xs'}`}>
        {age === 'offline' ? 'Offline · ' : age === 'stale' ? 'Stale · ' : ''}
        Newest reading: {ageText}
      </p>
      {device.noWorkingChannel && (
        <p
          role="note"
          className={`rounded-lg border border-red-600 bg-red-50 p-2 font-semibold text-red-800 dark:bg-red-950/60 dark:text-red-200 ${large ? 'text-xl' : 'text-xs'}`}
        >
          No primary contact can be reached: none has a working channel
        </p>
      )}
      <div className="text-teal-700 dark:text-teal-300">
        <Sparkline values={device.sparkline} label={sparkLabel('Heart rate', device.sparkline)} />
      </div>
      {device.alerts.length > 0 && (
        <ul className="space-y-1.5" aria-label={`Open alerts of ${device.deviceName}`}>
          {device.alerts.map((a) => (
            <li
              key={a._id}
              className={`rounded-lg border p-2 ${a.priority === 'high' ? 'border-red-600 bg-red-50 dark:bg-red-950/60' : 'border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-800/60'}`}
            >
              <p className={`text-slate-900 dark:text-slate-50 ${large ? 'text-xl' : 'text-sm'}`}>
                <span className="font-bold">{PRIORITY_LABELS[a.priority]}</span> · {a.alertTitle} ·{' '}
                <span className="font-semibold">{STATUS_WORDS[a.status]}</span>
              </p>
              {/* The actions read no message: the board leaves it out of its snapshot. */}
              {!large && alertActions && (
                <div className="mt-1.5">
                  {alertActions({
                    ...a,
                    device: device._id,
                    deviceName: device.deviceName,
                    alertMessage: a.alertTitle,
                  })}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
});
