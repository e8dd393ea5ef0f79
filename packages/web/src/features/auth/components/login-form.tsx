import { zodResolver } from '@hookform/resolvers/zod';
import {
  ERRORS,
  type LoginInput,
  loginSchema,
  type SignedIn,
  type TwoFactorChallenge,
} from '@vitalwatch/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { SubmitButton } from '@/components/form-actions.tsx';
import { TextField } from '@/components/form-field.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { PATHS } from '@/lib/paths.ts';
import { returnPath } from '@/lib/return-path.ts';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { storeTokens } from '@/lib/token-storage.ts';
import { logIn } from '../api/log-in.ts';
import { TwoFactorStep } from './two-factor-step.tsx';

const EMPTY: LoginInput = { username: '', password: '' };

/**
 * Login with a username or an email, then a code where two-factor sign-in is on; on success the
 * guard on / sends the user to their area.
 */
export function LoginForm() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const dispatch = useAppDispatch();
  const [challenge, setChallenge] = useState<TwoFactorChallenge['twoFactor'] | null>(null);
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(loginSchema), defaultValues: EMPTY });

  const signedIn = (session: SignedIn, message: string) => {
    storeTokens(session);
    dispatch(loggedIn(session.user));
    toast.success(message);
    navigate(returnPath(search) ?? PATHS.home);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { message, data } = await logIn(values);
      if ('twoFactor' in data) setChallenge(data.twoFactor);
      else signedIn(data, message);
    } catch (error) {
      toast.error(errorMessage(error, ERRORS.loginFailed));
    }
  });

  if (challenge)
    return (
      <TwoFactorStep
        challenge={challenge}
        onSignedIn={signedIn}
        onBack={() => {
          resetField('password');
          setChallenge(null);
        }}
      />
    );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <TextField
        label="Username or email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <SubmitButton
        size="lg"
        className="w-full"
        busy={isSubmitting}
        label="Login"
        busyLabel="Logging in..."
      />
    </form>
  );
}
