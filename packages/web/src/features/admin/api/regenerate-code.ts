import { type AdminDevice, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceSaved } from './get-devices.ts';

export type CodeType = 'activationCode' | 'apiAuthCode';

/** `contracts.adminDevice.regenerateCode`: replaces one code; the old one stops working at once. */
export const regenerateCodeApi = api.injectEndpoints({
  endpoints: (build) => ({
    regenerateCode: build.mutation<AdminDevice, { id: string; codeType: CodeType }>({
      ...fromContract(
        contracts.adminDevice.regenerateCode,
        ({ id, codeType }: { id: string; codeType: CodeType }) => ({ params: { id }, query: { codeType } }),
        (response) => response.data.device,
      ),
      onQueryStarted: onSuccess(deviceSaved),
    }),
  }),
});

export const { useRegenerateCodeMutation } = regenerateCodeApi;
