import { Link } from 'react-router';
import { PATHS } from '@/lib/paths.ts';
import { AuthCard, authLinkClass } from './auth-card.tsx';
import { SignupForm } from './signup-form.tsx';

export function SignupPage() {
  return (
    <AuthCard
      title="Create Account"
      subtitle="Start monitoring what matters in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link to={PATHS.signin} className={authLinkClass}>
            Login
          </Link>
        </>
      }
    >
      <SignupForm />
    </AuthCard>
  );
}
