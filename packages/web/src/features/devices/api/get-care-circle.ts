import { type CareCircle, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.circle.list` in the store: one device's people and, for owners, open invitations. */
export const careCircleApi = api.injectEndpoints({
  endpoints: (build) => ({
    careCircle: build.query<CareCircle, string>({
      ...fromContract(
        contracts.circle.list,
        (deviceId: string) => ({ params: { deviceId } }),
        (response) => response.data.circle,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useCareCircleQuery } = careCircleApi;

/** A circle the server answered with after a change takes the cached one's place. */
export const circleSaved = (circle: CareCircle) =>
  careCircleApi.util.updateQueryData('careCircle', circle.deviceId, () => circle);
