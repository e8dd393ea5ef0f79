import type { RouteObject } from 'react-router';
import { AdminDevicesPage } from '../features/admin/components/admin-devices-page.tsx';
import { AdminOverviewPage } from '../features/admin/components/admin-overview-page.tsx';
import { UsersPage } from '../features/admin/components/users-page.tsx';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { SignupPage } from '../features/auth/components/signup-page.tsx';
import { DemoPage } from '../features/demo/components/demo-page.tsx';
import { DevicesPage } from '../features/devices/components/devices-page.tsx';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { ProfilePage } from '../features/profile/components/profile-page.tsx';
import { RouteGuard } from './guard/route-guard.tsx';
import { AppLayout } from './layouts/app-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { AlertsPage } from './user-area/alerts-page.tsx';
import { OverviewPage } from './user-area/overview-page.tsx';
import { UserAreaLayout } from './user-area/user-area-layout.tsx';

/**
 * The route table of spec section 2. Each guarded group shares one guard (so moving inside an
 * area does not flash the spinner); add a screen by adding a child to its group.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <AppLayout />,
        children: [
          {
            element: <RouteGuard authRequired={false} />,
            children: [
              { index: true, element: <LandingPage /> },
              { path: 'signup', element: <SignupPage /> },
              { path: 'signin', element: <LoginPage /> },
            ],
          },
          { path: 'demo', element: <DemoPage /> },
          {
            path: 'dashboard',
            element: <RouteGuard requiredRole="user" />,
            children: [
              {
                element: <UserAreaLayout />,
                children: [
                  { index: true, element: <OverviewPage /> },
                  { path: 'devices', element: <DevicesPage /> },
                  { path: 'alerts', element: <AlertsPage /> },
                  { path: 'profile', element: <ProfilePage /> },
                ],
              },
            ],
          },
          {
            path: 'admin-dashboard',
            element: <RouteGuard requiredRole="admin" />,
            children: [
              { index: true, element: <AdminOverviewPage /> },
              { path: 'users', element: <UsersPage /> },
              { path: 'devices', element: <AdminDevicesPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
