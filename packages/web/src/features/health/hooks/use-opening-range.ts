import { HISTORY_MAX_RANGE_DAYS } from '@vitalwatch/shared';
import { useState } from 'react';
import { useHealthHistoryQuery } from '../api/get-health-history.ts';
import { needsOlderThanHour, openingRange } from '../utils/opening-range.ts';
import type { HealthRangeId } from '../utils/records.ts';

const HOUR_MS = 3600_000;

/**
 * The chart's opening period for a device, from what the server says: its newest reading
 * (`lastUpdate`) and, when that is within the hour, whether it holds any reading older than an
 * hour (one small history call: the summary's count over the longest range a call covers).
 * Decided once, when the device's overview opens. Null while the server is asked; a failed call
 * opens on the usual 24 hours.
 */
export function useOpeningRange(deviceId: string, lastUpdate: string | null): HealthRangeId | null {
  const [facts] = useState(() => ({
    now: Date.now(),
    newest: lastUpdate === null ? null : Date.parse(lastUpdate),
  }));
  const ask = needsOlderThanHour(facts.newest, facts.now);
  const to = facts.now - HOUR_MS;
  const older = useHealthHistoryQuery(
    {
      deviceId,
      from: new Date(to - HISTORY_MAX_RANGE_DAYS * 24 * HOUR_MS).toISOString(),
      to: new Date(to).toISOString(),
      points: 10,
    },
    { skip: !ask },
  );
  const olderThanHour = older.data ? older.data.summary.readings > 0 : older.isError ? true : null;
  return openingRange({ ...facts, olderThanHour });
}
