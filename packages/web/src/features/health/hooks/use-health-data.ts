import { ERRORS, HEALTH_FETCH_MAX_LIMIT, type HealthRecord } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api-error.ts';
import { useRealtimeEvent } from '../../../lib/socket.ts';
import { fetchHealth } from '../api/fetch-health.ts';
import { type HealthRangeId, insertRecord, newerRecord, rangeMs } from '../utils/records.ts';

export interface HealthData {
  /** Loading the device's newest record for the first time (cards, 'Updated', connection). */
  loading: boolean;
  /** The newest record; null when there is none or the load failed. */
  latest: HealthRecord | null;
  /** Why the last load failed (spec catalogue), else null. */
  error: string | null;
  /** Loading the chart's period for the first time. */
  rangeLoading: boolean;
  /** Records of the chosen period, newest first. */
  records: HealthRecord[];
  /** When the chart's period starts (ms). */
  rangeFrom: number;
  retry: () => void;
}

const NO_RECORDS: HealthRecord[] = [];

/** Spec 8: 'Health data not found' for a 404, else 'Failed to fetch health data' (or the server's message). */
export const healthError = (error: unknown) =>
  errorMessage(
    error,
    error instanceof ApiError && error.status === 404 ? ERRORS.healthNotFound : ERRORS.healthFetchFailed,
    ERRORS.unexpected,
  );

/** Fetched records with the live ones of the same device that arrived meanwhile. */
function mergeLive(
  fetched: HealthRecord[],
  current: readonly HealthRecord[],
  deviceId: string,
  from: number,
) {
  return current
    .filter((r) => r.device === deviceId && Date.parse(r.createdAt) >= from)
    .reduce((list, r) => insertRecord(list, r, HEALTH_FETCH_MAX_LIMIT), fetched);
}

/**
 * One device's health data: its newest record and the records of the chosen period. Live readings
 * of that device are merged in; after a lost connection both are fetched again, quietly. A failed
 * load shows as no data (spec 4) with the reason kept for a retry.
 */
export function useHealthData(deviceId: string, range: HealthRangeId): HealthData {
  const [latest, setLatest] = useState<HealthRecord | null>(null);
  const [records, setRecords] = useState<HealthRecord[]>([]);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [rangeLoadedFor, setRangeLoadedFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rangeFrom, setRangeFrom] = useState(() => Date.now() - rangeMs(range));
  const [attempt, setAttempt] = useState(0);
  const rangeKey = `${deviceId}:${range}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for a new fetch (retry, socket (re)connected).
  useEffect(() => {
    const controller = new AbortController();
    fetchHealth(deviceId, { limit: 1 }, controller.signal).then(
      (data) => {
        const fetched = data[0] ?? null;
        setLatest((current) => {
          if (current?.device !== deviceId || !fetched) return fetched;
          return newerRecord(current, fetched);
        });
        setError(null);
        setLoadedFor(deviceId);
      },
      (cause: unknown) => {
        if (controller.signal.aborted) return;
        setLatest(null);
        setError(healthError(cause));
        setLoadedFor(deviceId);
      },
    );
    return () => controller.abort();
  }, [deviceId, attempt]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for a new fetch (retry, socket (re)connected).
  useEffect(() => {
    const controller = new AbortController();
    const to = Date.now();
    const from = to - rangeMs(range);
    setRangeFrom(from);
    const body = {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      limit: HEALTH_FETCH_MAX_LIMIT,
    };
    fetchHealth(deviceId, body, controller.signal).then(
      (data) => {
        setRecords((current) => mergeLive(data, current, deviceId, from));
        setRangeLoadedFor(`${deviceId}:${range}`);
      },
      (cause: unknown) => {
        if (controller.signal.aborted) return;
        setRecords([]);
        setError(healthError(cause));
        setRangeLoadedFor(`${deviceId}:${range}`);
      },
    );
    return () => controller.abort();
  }, [deviceId, range, attempt]);

  useRealtimeEvent('health', (record) => {
    if (record.device !== deviceId) return;
    setLatest((current) => (current?.device === deviceId ? newerRecord(current, record) : record));
    if (Date.parse(record.createdAt) >= rangeFrom) {
      setRecords((current) => insertRecord(current, record, HEALTH_FETCH_MAX_LIMIT));
    }
  });
  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const loading = loadedFor !== deviceId;
  const rangeLoading = rangeLoadedFor !== rangeKey;
  return {
    loading,
    latest: loading ? null : latest,
    error,
    rangeLoading,
    records: rangeLoading ? NO_RECORDS : records,
    rangeFrom,
    retry,
  };
}
