import { type AdminDevice, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceSaved } from './get-devices.ts';

/** `contracts.adminDevice.changeValidity`: an inactive device can neither ingest nor be added by a user. */
export const changeValidityApi = api.injectEndpoints({
  endpoints: (build) => ({
    changeValidity: build.mutation<AdminDevice, { id: string; isValid: boolean }>({
      ...fromContract(
        contracts.adminDevice.changeValidity,
        ({ id, isValid }: { id: string; isValid: boolean }) => ({ params: { id }, body: { isValid } }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useChangeValidityMutation } = changeValidityApi;
