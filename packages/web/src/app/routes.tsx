import type { RouteObject } from 'react-router';
import { BootSplash } from './boot-splash.tsx';
import { RouteGuard } from './guard/route-guard.tsx';
import { AppLayout } from './layouts/app-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RootLayout } from './root-layout.tsx';

/**
 * A screen's code is fetched when its route is first visited: the landing page does not download
 * the dashboard, the admin area or Chart.js. Pages of one area share a chunk (`area`), so moving
 * inside an area fetches nothing more.
 */
const page =
  <M,>(load: () => Promise<M>, pick: (module: M) => React.ComponentType) =>
  async () => ({ Component: pick(await load()) });

const auth = () => import('./areas/auth-area.ts');
const user = () => import('./areas/user-area.ts');
const userPages = () => import('./areas/user-pages.ts');
const admin = () => import('./areas/admin-area.ts');

/**
 * The route table of spec section 2. Each guarded group shares one guard (so moving inside an
 * area does not flash the spinner); add a screen by adding a child to its group.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Shown until the first page's lazy code has loaded (without one the router warns on every load).
    HydrateFallback: BootSplash,
    children: [
      {
        element: <AppLayout />,
        children: [
          {
            element: <RouteGuard authRequired={false} />,
            children: [
              {
                index: true,
                lazy: page(
                  () => import('@/features/landing/components/landing-page.tsx'),
                  (m) => m.LandingPage,
                ),
              },
              { path: 'signup', lazy: page(auth, (m) => m.SignupPage) },
              { path: 'signin', lazy: page(auth, (m) => m.LoginPage) },
            ],
          },
          // Mailed links and asking for one: no guard, signed in or out.
          { path: 'forgot-password', lazy: page(auth, (m) => m.ForgotPasswordPage) },
          { path: 'reset-password', lazy: page(auth, (m) => m.ResetPasswordPage) },
          { path: 'verify-email', lazy: page(auth, (m) => m.VerifyEmailPage) },
          {
            // An invitation link: read signed out, accepted once signed in; no guard.
            path: 'invitation/:token',
            lazy: page(
              () => import('@/features/invitation/components/invitation-page.tsx'),
              (m) => m.InvitationPage,
            ),
          },
          {
            // A share link: no account, no guard; the token is the only key.
            path: 'shared/:token',
            lazy: page(
              () => import('@/features/share/components/shared-device-page.tsx'),
              (m) => m.SharedDevicePage,
            ),
          },
          {
            // A device label's QR code: signed in or not, it leads to Add Device with the code filled in.
            path: 'claim/:code',
            lazy: page(
              () => import('@/features/devices/components/claim-link.tsx'),
              (m) => m.ClaimLink,
            ),
          },
          {
            path: 'demo',
            lazy: page(
              () => import('@/features/demo/components/demo-page.tsx'),
              (m) => m.DemoPage,
            ),
          },
          // Help pages: public, signed in or out.
          {
            path: 'guide',
            lazy: page(
              () => import('@/features/help/components/user-guide-page.tsx'),
              (m) => m.UserGuidePage,
            ),
          },
          {
            path: 'faq',
            lazy: page(
              () => import('@/features/help/components/faq-page.tsx'),
              (m) => m.FaqPage,
            ),
          },
          {
            path: 'support',
            lazy: page(
              () => import('@/features/help/components/support-page.tsx'),
              (m) => m.SupportPage,
            ),
          },
          {
            path: 'about',
            lazy: page(
              () => import('@/features/help/components/about-page.tsx'),
              (m) => m.AboutPage,
            ),
          },
          {
            path: 'dashboard',
            element: <RouteGuard requiredRole="user" />,
            children: [
              {
                lazy: page(user, (m) => m.UserAreaLayout),
                children: [
                  { index: true, lazy: page(user, (m) => m.OverviewPage) },
                  { path: 'devices', lazy: page(userPages, (m) => m.DevicesPage) },
                  { path: 'devices/:deviceId/bluetooth', lazy: page(userPages, (m) => m.WearablePage) },
                  { path: 'alerts', lazy: page(userPages, (m) => m.AlertsPage) },
                  { path: 'board', lazy: page(userPages, (m) => m.BoardPage) },
                  { path: 'profile', lazy: page(userPages, (m) => m.ProfilePage) },
                ],
              },
            ],
          },
          {
            path: 'admin-dashboard',
            element: <RouteGuard requiredRole="admin" />,
            children: [
              { index: true, lazy: page(admin, (m) => m.AdminOverviewPage) },
              { path: 'users', lazy: page(admin, (m) => m.UsersPage) },
              { path: 'devices', lazy: page(admin, (m) => m.AdminDevicesPage) },
              { path: 'audit', lazy: page(admin, (m) => m.AuditLogPage) },
              { path: 'share-links', lazy: page(admin, (m) => m.ShareLinksPage) },
              { path: 'teams', lazy: page(admin, (m) => m.TeamsPage) },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
