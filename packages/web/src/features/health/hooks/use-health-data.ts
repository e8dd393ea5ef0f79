import { ERRORS, type HealthRecord } from '@vitalwatch/shared';
import { ApiError, errorMessage } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { latestHealthApi, useLatestHealthQuery } from '../api/latest-health.ts';
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
 * One device's newest record (the spec's `health/fetch`, through RTK Query), kept current by live
 * readings written into the cache; after a lost connection it is fetched again, quietly. A failed
 * load shows as no data (spec 4) with the reason kept for a retry. The chart's history is
 * `useHealthHistory`.
 */
export function useHealthData(deviceId: string): HealthData {
  const dispatch = useAppDispatch();
  const query = useLatestHealthQuery(deviceId);

  useRealtimeEvent('health', (record) => {
    if (record.device !== deviceId) return;
    dispatch(
      latestHealthApi.util.updateQueryData('latestHealth', deviceId, (current) =>
        current ? newerRecord(current, record) : record,
      ),
    );
  });
  useWhenConnected(query.isFetching, () => void query.refetch());

  return {
    loading: query.isLoading,
    latest: query.isError ? null : (query.data ?? null),
    error: query.error ? healthError(asApiError(query.error)) : null,
    retry: () => void query.refetch(),
  };
}
