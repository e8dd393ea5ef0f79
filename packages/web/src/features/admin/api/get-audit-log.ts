import { type AuditPage, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** The audit screen's filters, as the query of `contracts.audit.list` takes them (unset: any). */
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
      ...fromContract(
        contracts.audit.list,
        (args: AuditFilters & { before?: string }) => ({
          query: { limit: 50, ...Object.fromEntries(Object.entries(args).filter(([, value]) => value)) },
        }),
        (response) => response.data,
      ),
      // Never served from a stale cache: an admin opening the log wants what happened up to now.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAuditLogQuery } = auditLogApi;
