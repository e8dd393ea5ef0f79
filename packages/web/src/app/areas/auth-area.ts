/** The sign-in and sign-up screens, and those of mailed links: one chunk. */
export { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page.tsx';
export { LoginPage } from '@/features/auth/components/login-page.tsx';
export { ResetPasswordPage } from '@/features/auth/components/reset-password-page.tsx';
export { SignupPage } from '@/features/auth/components/signup-page.tsx';
export { VerifyEmailPage } from '@/features/auth/components/verify-email-page.tsx';
