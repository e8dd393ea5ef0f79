import { contracts, type SystemStatus } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.admin.systemStatus` in the store: the platform's components, each checked now. */
export const systemStatusApi = api.injectEndpoints({
  endpoints: (build) => ({
    systemStatus: build.query<SystemStatus, void>({
      ...fromContract(
        contracts.admin.systemStatus,
        () => ({}),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSystemStatusQuery } = systemStatusApi;
