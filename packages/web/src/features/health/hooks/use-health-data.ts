import { ERRORS, type HealthRecord } from '@vitalwatch/shared';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api-error.ts';
import { useRealtimeEvent } from '../../../lib/socket.ts';
import { fetchHealth } from '../api/fetch-health.ts';
import { newerRecord } from '../utils/records.ts';

export interface HealthData {
  /** Loading the device's newest record for the first time (cards, 'Updated', connection). */
  loading: boolean;
  /** The newest record; null when there is none or the load failed. */
  latest: HealthRecord | null;
  /** Why the last load failed (spec catalogue), else null. */
  error: string | null;
  retry: () => void;
}

/** Spec 8: 'Health data not found' for a 404, else 'Failed to fetch health data' (or the server's message). */
export const healthError = (error: unknown) =>
  errorMessage(
    error,
    error instanceof ApiError && error.status === 404 ? ERRORS.healthNotFound : ERRORS.healthFetchFailed,
    ERRORS.unexpected,
  );

/**
 * One device's newest record (the spec's `health/fetch`), kept current by live readings; after a
 * lost connection it is fetched again, quietly. A failed load shows as no data (spec 4) with the
 * reason kept for a retry. The chart's history is `useHealthHistory`.
 */
export function useHealthData(deviceId: string): HealthData {
  const [latest, setLatest] = useState<HealthRecord | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

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

  useRealtimeEvent('health', (record) => {
    if (record.device !== deviceId) return;
    setLatest((current) => (current?.device === deviceId ? newerRecord(current, record) : record));
  });
  useRealtimeEvent('connected', () => setAttempt((n) => n + 1));

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const loading = loadedFor !== deviceId;
  return { loading, latest: loading ? null : latest, error, retry };
}
