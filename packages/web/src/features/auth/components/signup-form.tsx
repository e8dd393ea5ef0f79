import { zodResolver } from '@hookform/resolvers/zod';
import { ERRORS, type SignupInput, signupSchema } from '@vitalwatch/shared';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { SubmitButton } from '@/components/form-actions.tsx';
import { TextField } from '@/components/form-field.tsx';
import { errorMessage } from '@/lib/api-error.ts';
import { applyServerIssues } from '@/lib/form-issues.ts';
import { PATHS } from '@/lib/paths.ts';
import { keepReturn } from '@/lib/return-path.ts';
import { signedUp } from '@/lib/store/auth-slice.ts';
import { useAppDispatch } from '@/lib/store/hooks.ts';
import { storeTokens } from '@/lib/token-storage.ts';
import { signUp } from '../api/sign-up.ts';

const FIELDS = ['fullName', 'username', 'email', 'password', 'cnfPassword'] as const;
const EMPTY: SignupInput = { fullName: '', username: '', email: '', password: '', cnfPassword: '' };

/** Sign-up, validated on submit with the spec's messages; on success the user logs in on /signin. */
export function SignupForm() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const dispatch = useAppDispatch();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signupSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { message, data } = await signUp(values);
      storeTokens(data);
      dispatch(signedUp(data.user));
      toast.success(message);
      navigate(`${PATHS.signin}${keepReturn(search)}`);
    } catch (error) {
      applyServerIssues(error, FIELDS, setError);
      toast.error(errorMessage(error, ERRORS.signupFailed));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <TextField
        label="Full Name"
        autoComplete="name"
        error={errors.fullName?.message}
        {...register('fullName')}
      />
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.cnfPassword?.message}
        {...register('cnfPassword')}
      />
      <SubmitButton
        size="lg"
        className="w-full"
        busy={isSubmitting}
        label="Register"
        busyLabel="Registering..."
      />
    </form>
  );
}
