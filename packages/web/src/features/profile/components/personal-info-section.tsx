import { zodResolver } from '@hookform/resolvers/zod';
import { type PublicUser, TOASTS, updateNameBody } from '@vitalwatch/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { Button } from '@/components/button.tsx';
import { Card } from '@/components/card.tsx';
import { FormActions } from '@/components/form-actions.tsx';
import { FormError } from '@/components/form-error.tsx';
import { TextField } from '@/components/form-field.tsx';
import { PencilIcon } from '@/components/icons.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { updateName } from '../api/update-name.ts';
import { errorDetail } from '../utils/error-detail.ts';
import { ReadOnlyField } from './read-only-field.tsx';

/** 'Member Since', as every date: Jan 5, 2026. */
export const memberSince = (iso: string) => formatDay(iso);

/** Personal Information: Full Name editable (edit, then save or cancel); email, username, member since read-only. */
export function PersonalInfoSection({ user }: { user: PublicUser }) {
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(updateNameBody), defaultValues: { fullName: user.fullName } });

  const stopEditing = () => {
    reset({ fullName: user.fullName });
    setFailure(null);
    setEditing(false);
  };

  const onSubmit = handleSubmit(async ({ fullName }) => {
    setFailure(null);
    try {
      const updated = await updateName(fullName);
      dispatch(loggedIn(updated));
      reset({ fullName: updated.fullName });
      setEditing(false);
      toast.success(TOASTS.profileUpdated);
    } catch (error) {
      setFailure(errorDetail(error));
      toast.error(TOASTS.profileUpdateFailed);
    }
  });

  return (
    <Card
      id="personal-info-title"
      title="Personal Information"
      description="Your name as it appears across VitalWatch."
      action={
        !editing && (
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            <PencilIcon className="size-4" /> Edit Profile
          </Button>
        )
      }
    >
      <form noValidate onSubmit={onSubmit}>
        {/* While editing, the name field sits above the list: a <dl> holds only terms and values. */}
        {editing && (
          <div className="mb-5">
            <TextField
              label="Full Name"
              autoComplete="name"
              autoFocus
              error={errors.fullName?.message}
              {...register('fullName')}
            />
          </div>
        )}
        <dl className="grid gap-5 sm:grid-cols-2">
          {!editing && <ReadOnlyField label="Full Name" value={user.fullName} />}
          <ReadOnlyField label="Email Address" value={user.email} />
          <ReadOnlyField label="Username" value={user.username} />
          <ReadOnlyField label="Member Since" value={memberSince(user.createdAt)} />
        </dl>
        {editing && (
          <div className="mt-5 space-y-4">
            {failure && <FormError message={failure} />}
            <FormActions
              onCancel={stopEditing}
              submitLabel="Save Changes"
              busyLabel="Saving..."
              busy={isSubmitting}
            />
          </div>
        )}
      </form>
    </Card>
  );
}
