import { ERRORS, type HealthRecord, OUTAGE_MESSAGES } from '@vitalwatch/shared';
import { ApiError, errorMessage, failureKind } from '@/lib/api-error.ts';
import { useRealtimeEvent } from '@/lib/socket.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { useWhenConnected } from '@/lib/use-when-connected.ts';
import { latestHealthApi, useLatestHealthQuery } from '../api/get-latest-health.ts';
import { newerRecord } from '../utils/records.ts';

export interface HealthData {
  /** Loading the device's newest record for the first time (cards, 'Updated', connection). */
  loading: boolean;
  /** The newest record; null when there is none or the load failed. */
  latest: HealthRecord | null;
  /** What failed in the last load and the spec's message for it, else null. */
  failure: HealthFailure | null;
  retry: () => void;
}

/** A failed load: `what` failed (the server unreachable, or its error), and `message`, the spec's text. */
export interface HealthFailure {
  what: string;
  message: string;
}

/** Spec 8: 'Health data not found' for a 404, else 'Failed to fetch health data' (or the server's message). */
export const healthError = (error: unknown) =>
  errorMessage(
    error,
    error instanceof ApiError && error.status === 404 ? ERRORS.healthNotFound : ERRORS.healthFetchFailed,
    ERRORS.unexpected,
  );

/**
 * What failed, said so that nobody checks a device for a server that did not answer; beside it
 * the spec's text (the server's message, 'Health data not found', 'Failed to fetch health data'
 * or, with no answer at all, 'An unexpected error occurred! Please try again.').
 */
export function healthFailure(error: ApiError): HealthFailure {
  const what =
    failureKind(error) === 'unreachable'
      ? OUTAGE_MESSAGES.unreachable
      : error.code === 'INVALID_RESPONSE' || error.status === 0
        ? OUTAGE_MESSAGES.unreadable
        : OUTAGE_MESSAGES.serverError(error.status);
  return { what, message: healthError(error) };
}

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
    failure: query.error ? healthFailure(asApiError(query.error)) : null,
    retry: () => void query.refetch(),
  };
}
