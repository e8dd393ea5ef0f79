import { type AlertLifecycle, contracts, type SnoozeInput, type SnoozeRecord } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { callOf, fromContract } from '@/lib/store/contract-query.ts';
import { lifecycleChanged } from './alert-cache.ts';

/** What a carer does about an alert: "I'm on it" (acknowledge) or "dealt with" (resolve). */
export type AlertAction = 'acknowledge' | 'resolve';

export const actOnAlertApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `contracts.alert.acknowledge` or `.resolve`: answers the alert's shared state afterwards,
     * applied at once wherever the alert is listed (everyone else assigned hears of it over the socket).
     */
    actOnAlert: build.mutation<AlertLifecycle, { action: AlertAction; alertId: string; note?: string }>({
      query: ({ action, alertId, note }) =>
        callOf(contracts.alert[action], { params: { alertId }, body: note ? { note } : {} }),
      transformResponse: (response: { data: { alert: AlertLifecycle } }) => response.data.alert,
      onQueryStarted: onSuccess(lifecycleChanged),
    }),
    /** `contracts.alert.snooze`: no push or e-mail of this device's alerts of this type to the caller for a while. */
    snoozeAlerts: build.mutation<SnoozeRecord, SnoozeInput>({
      ...fromContract(
        contracts.alert.snooze,
        (body: SnoozeInput) => ({ body }),
        (response) => response.data.snooze,
      ),
    }),
  }),
});

export const { useActOnAlertMutation, useSnoozeAlertsMutation } = actOnAlertApi;
