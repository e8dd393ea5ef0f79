import {
  ADMIN_ERRORS,
  type AddUserInput,
  type AdminUser,
  type EditUserInput,
  TOASTS,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage } from '@/lib/api-error.ts';
import { addUser } from '../api/add-user.ts';
import { deleteUser } from '../api/delete-user.ts';
import { editUser } from '../api/edit-user.ts';
import { resetPassword } from '../api/reset-password.ts';
import { removeById, upsertById } from '../utils/list-updates.ts';

type UpdateUsers = (change: (users: AdminUser[]) => AdminUser[]) => void;

/**
 * The user-management calls with their toasts (server message or the spec's fallback). Each one
 * closes its modal when the call is over, whether it succeeded or failed (spec 4), and a success
 * changes the list in place: append, replace by id, remove by id.
 */
export function useUserActions(updateUsers: UpdateUsers, closeModal: () => void) {
  const [deleting, setDeleting] = useState(false);

  const run = async (call: () => Promise<string>, fallback: string) => {
    try {
      toast.success(await call());
    } catch (error) {
      toast.error(errorMessage(error, fallback));
    } finally {
      closeModal();
    }
  };

  return {
    deleting,
    add: (input: AddUserInput) =>
      run(async () => {
        const user = await addUser(input);
        updateUsers((users) => upsertById(users, user));
        return TOASTS.userAdded;
      }, ADMIN_ERRORS.addUserFailed),
    edit: (id: string, input: EditUserInput) =>
      run(async () => {
        const user = await editUser(id, input);
        updateUsers((users) => upsertById(users, user));
        return TOASTS.userUpdated;
      }, ADMIN_ERRORS.updateUserFailed),
    reset: (id: string, newPassword: string) =>
      run(async () => {
        await resetPassword(id, newPassword);
        return TOASTS.passwordReset;
      }, ADMIN_ERRORS.resetPasswordFailed),
    remove: async (id: string) => {
      setDeleting(true);
      await run(async () => {
        await deleteUser(id);
        updateUsers((users) => removeById(users, id));
        return TOASTS.userDeleted;
      }, ADMIN_ERRORS.deleteUserFailed);
      setDeleting(false);
    },
  };
}

export type UserActions = ReturnType<typeof useUserActions>;
