import {
  type AlertLifecycle,
  alertLifecycleResponse,
  type SnoozeRecord,
  snoozeResponse,
} from '@vitalwatch/shared';
import type { z } from 'zod';
import { api, onSuccess } from '@/lib/store/api.ts';
import { lifecycleChanged } from './alert-cache.ts';

/** What a carer does about an alert: "I'm on it" (acknowledge) or "dealt with" (resolve). */
export type AlertAction = 'acknowledge' | 'resolve';

export const alertActionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * POST /alert/acknowledge/:id or /alert/resolve/:id: answers the alert's shared state
     * afterwards, applied at once wherever the alert is listed (everyone else assigned hears of it
     * over the socket).
     */
    actOnAlert: build.mutation<AlertLifecycle, { action: AlertAction; alertId: string; note?: string }>({
      query: ({ action, alertId, note }) => ({
        path: `/alert/${action}/${encodeURIComponent(alertId)}`,
        body: note ? { note } : {},
        schema: alertLifecycleResponse,
      }),
      transformResponse: (response: z.infer<typeof alertLifecycleResponse>) => response.data.alert,
      onQueryStarted: onSuccess(lifecycleChanged),
    }),
    /** POST /alert/snooze: no push or e-mail of this device's alerts of this type to the caller for a while. */
    snoozeAlerts: build.mutation<SnoozeRecord, { deviceId: string; alertType: string; minutes: number }>({
      query: (body) => ({ path: '/alert/snooze', body, schema: snoozeResponse }),
      transformResponse: (response: z.infer<typeof snoozeResponse>) => response.data.snooze,
    }),
  }),
});

export const { useActOnAlertMutation, useSnoozeAlertsMutation } = alertActionsApi;
