/** The sign-in and sign-up screens: one chunk. */
export { LoginPage } from '@/features/auth/components/login-page.tsx';
export { SignupPage } from '@/features/auth/components/signup-page.tsx';
