import { Link, useLocation } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { keepReturn } from '@/lib/return-path.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  // An invitation link's way back survives a switch between signing in and signing up.
  const { search } = useLocation();
  return (
    <AuthCard
      title="Login"
      subtitle="Welcome back. Sign in to see your vitals and alerts."
      footer={
        <>
          New to VitalWatch?{' '}
          <Link to={`${PATHS.signup}${keepReturn(search)}`} className={authLinkClass}>
            Create an account
          </Link>
        </>
      }
    >
      <LoginForm />
      <p className="mt-4 text-center text-sm">
        <Link to={PATHS.forgotPassword} className={authLinkClass}>
          Forgot password?
        </Link>
      </p>
    </AuthCard>
  );
}
