import { type CareCircle, type CircleRole, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { deviceCircleApi } from './get-device-circle.ts';

interface SetRole {
  deviceId: string;
  userId: string;
  circleRole: CircleRole;
}

/** `contracts.adminCircle.changeRole`: an admin sets anyone's role; the answer replaces the cached circle. */
export const setCircleRoleApi = api.injectEndpoints({
  endpoints: (build) => ({
    setCircleRole: build.mutation<CareCircle, SetRole>({
      ...fromContract(
        contracts.adminCircle.changeRole,
        ({ deviceId, ...body }: SetRole) => ({ params: { deviceId }, body }),
        (response) => response.data.circle,
      ),
      onQueryStarted: onSuccess((circle: CareCircle) =>
        deviceCircleApi.util.updateQueryData('adminDeviceCircle', circle.deviceId, () => circle),
      ),
    }),
  }),
});

export const { useSetCircleRoleMutation } = setCircleRoleApi;
