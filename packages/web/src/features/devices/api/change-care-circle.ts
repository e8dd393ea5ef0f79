import { type CareCircle, type CircleRole, contracts } from '@vitalwatch/shared';
import { api, onSuccess } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';
import { circleSaved } from './get-care-circle.ts';

interface OnDevice {
  deviceId: string;
}
type Invite = OnDevice & { email: string; circleRole: CircleRole };
type ChangeRole = OnDevice & { userId: string; circleRole: CircleRole; contactRole?: 'primary' | 'backup' };
type OnUser = OnDevice & { userId: string };
type Revoke = OnDevice & { invitationId: string };

const circleOf = (response: { data: { circle: CareCircle } }) => response.data.circle;
const saved = onSuccess((circle: CareCircle) => circleSaved(circle));

/**
 * The owner's changes to a care circle (invite, withdraw, role, remove or leave, confirm): each
 * answers with the circle as it now is, which replaces the cached one.
 */
export const changeCareCircleApi = api.injectEndpoints({
  endpoints: (build) => ({
    inviteToCircle: build.mutation<CareCircle, Invite>({
      ...fromContract(
        contracts.circle.invite,
        ({ deviceId, ...body }: Invite) => ({ params: { deviceId }, body }),
        circleOf,
      ),
      onQueryStarted: saved,
    }),
    revokeInvitation: build.mutation<CareCircle, Revoke>({
      ...fromContract(
        contracts.circle.revoke,
        ({ deviceId, ...body }: Revoke) => ({ params: { deviceId }, body }),
        circleOf,
      ),
      onQueryStarted: saved,
    }),
    changeCircleRole: build.mutation<CareCircle, ChangeRole>({
      ...fromContract(
        contracts.circle.changeRole,
        ({ deviceId, ...body }: ChangeRole) => ({ params: { deviceId }, body }),
        circleOf,
      ),
      onQueryStarted: saved,
    }),
    removeFromCircle: build.mutation<CareCircle, OnUser>({
      ...fromContract(
        contracts.circle.remove,
        ({ deviceId, ...body }: OnUser) => ({ params: { deviceId }, body }),
        circleOf,
      ),
      onQueryStarted: saved,
    }),
    confirmInCircle: build.mutation<CareCircle, OnUser>({
      ...fromContract(
        contracts.circle.confirm,
        ({ deviceId, ...body }: OnUser) => ({ params: { deviceId }, body }),
        circleOf,
      ),
      onQueryStarted: saved,
    }),
    regenerateActivationCode: build.mutation<string, string>({
      ...fromContract(
        contracts.circle.regenerateCode,
        (deviceId: string) => ({ params: { deviceId } }),
        (response) => response.data.activationCode,
      ),
    }),
  }),
});

export const {
  useInviteToCircleMutation,
  useRevokeInvitationMutation,
  useChangeCircleRoleMutation,
  useRemoveFromCircleMutation,
  useConfirmInCircleMutation,
  useRegenerateActivationCodeMutation,
} = changeCareCircleApi;
