import { type AuditPage, auditPageResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** The audit screen's filters, as the query string of GET /admin/audit takes them (unset: any). */
export interface AuditFilters {
  action?: string;
  outcome?: string;
  actor?: string;
  /** ISO instants. */
  from?: string;
  to?: string;
}

/** One page of the audit log: newest first, older than `before` when given. */
export const auditLogApi = api.injectEndpoints({
  endpoints: (build) => ({
    auditLog: build.query<AuditPage, AuditFilters & { before?: string }>({
      query: (args) => {
        const params = new URLSearchParams({ limit: '50' });
        for (const [key, value] of Object.entries(args)) if (value) params.set(key, value);
        return { path: `/admin/audit?${params}`, method: 'GET', auth: 'admin', schema: auditPageResponse };
      },
      transformResponse: (response: z.infer<typeof auditPageResponse>) => response.data,
      // Never served from a stale cache: an admin opening the log wants what happened up to now.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAuditLogQuery } = auditLogApi;
