import { Link, useLocation } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { keepReturn } from '@/lib/return-path.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';
import { SignupForm } from './signup-form.tsx';

export function SignupPage() {
  // An invitation link's way back survives a switch between signing in and signing up.
  const { search } = useLocation();
  return (
    <AuthCard
      title="Create Account"
      subtitle="Start monitoring what matters in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link to={`${PATHS.signin}${keepReturn(search)}`} className={authLinkClass}>
            Login
          </Link>
        </>
      }
    >
      <SignupForm />
    </AuthCard>
  );
}
