import { ADMIN_ERRORS, type AddUserInput, type EditUserInput, TOASTS } from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { asApiError } from '@/lib/store/api.ts';
import { useAddUserMutation } from '../api/add-user.ts';
import { useDeleteUserMutation } from '../api/delete-user.ts';
import { useEditUserMutation } from '../api/edit-user.ts';
import { useResetPasswordMutation } from '../api/reset-password.ts';

/**
 * The user-management calls with their toasts (server message or the spec's fallback). Each one
 * closes its modal when the call is over, whether it succeeded or failed (spec 4), and a success
 * changes the list in the store in place: append, replace by id, remove by id.
 */
export function useUserActions(closeModal: () => void) {
  const [deleting, setDeleting] = useState(false);
  const [addUser] = useAddUserMutation();
  const [editUser] = useEditUserMutation();
  const [resetPassword] = useResetPasswordMutation();
  const [deleteUser] = useDeleteUserMutation();

  const run = async (call: { unwrap: () => Promise<unknown> }, done: string, fallback: string) => {
    try {
      await call.unwrap();
      toast.success(done);
    } catch (error) {
      toast.error(errorMessage(asApiError(error), fallback));
    } finally {
      closeModal();
    }
  };

  return {
    deleting,
    add: (input: AddUserInput) => run(addUser(input), TOASTS.userAdded, ADMIN_ERRORS.addUserFailed),
    edit: (id: string, input: EditUserInput) =>
      run(editUser({ id, user: input }), TOASTS.userUpdated, ADMIN_ERRORS.updateUserFailed),
    reset: (id: string, newPassword: string) =>
      run(resetPassword({ id, newPassword }), TOASTS.passwordReset, ADMIN_ERRORS.resetPasswordFailed),
    remove: async (id: string) => {
      setDeleting(true);
      await run(deleteUser(id), TOASTS.userDeleted, ADMIN_ERRORS.deleteUserFailed);
      setDeleting(false);
    },
  };
}

export type UserActions = ReturnType<typeof useUserActions>;
