import { contracts, type TestReading } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/**
 * `contracts.deviceSetup.testReading`: the server stores one normal reading for the device as if the
 * device had sent it (alarms, carers' live views and trends see it too).
 */
export const sendTestReadingApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendTestReading: build.mutation<TestReading, string>({
      ...fromContract(
        contracts.deviceSetup.testReading,
        (id: string) => ({ params: { id } }),
        (response) => response.data.reading,
      ),
    }),
  }),
});

export const { useSendTestReadingMutation } = sendTestReadingApi;
