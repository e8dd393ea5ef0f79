import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { makeStore } from '@/app/store.ts';
import { OverviewPage } from '@/app/user-area/overview-page.tsx';
import { UserAreaLayout } from '@/app/user-area/user-area-layout.tsx';
import { loggedIn } from '@/lib/store/auth-slice.ts';
import { makeAlert, makeDevice, type makeRecord, mockApi, ok, user } from './dashboard-fixtures.tsx';

/**
 * The user dashboard in a router with a store, and an API answering like the server for a list of
 * records. Test files that use it mock `socket.io-client` and the chart (see dashboard-overview).
 */
export function renderDashboard() {
  const store = makeStore();
  store.dispatch(loggedIn(user));
  const router = createMemoryRouter(
    [
      {
        element: <UserAreaLayout />,
        children: [
          { path: '/dashboard', element: <OverviewPage /> },
          { path: '/dashboard/devices', element: <p>Devices page</p> },
        ],
      },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastContainer />
    </Provider>,
  );
  return { router };
}

export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

type Rec = ReturnType<typeof makeRecord>;
const stats = (values: number[]): [number, number, number, number] | null =>
  values.length === 0
    ? null
    : [
        Math.min(...values),
        values.reduce((a, b) => a + b, 0) / values.length,
        Math.max(...values),
        values.length,
      ];
const vitals = (rs: Rec[]) => ({
  readings: rs.length,
  spo2: stats(rs.flatMap((r) => (r.spo2 === null ? [] : [r.spo2]))),
  heartRate: stats(rs.flatMap((r) => (r.heartRate === null ? [] : [r.heartRate]))),
  temperature: stats(rs.flatMap((r) => (r.temperature === null ? [] : [r.temperature]))),
  battery: stats(rs.flatMap((r) => (r.battery === null ? [] : [r.battery]))),
});

/** What the server answers for a few readings: each one a raw bucket, oldest first. */
export function rawHistory(records: Rec[], body: unknown) {
  const { from, to } = body as { from: string; to: string };
  const inside = records
    .filter((r) => r.createdAt >= from && r.createdAt <= to)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return ok({
    resolution: 'raw',
    bucketSeconds: 0,
    from,
    to,
    buckets: inside.map((r) => ({ t: r.createdAt, ...vitals([r]) })),
    summary: vitals(inside),
  });
}

export function apiWith(opts: {
  devices?: ReturnType<typeof makeDevice>[];
  records?: ReturnType<typeof makeRecord>[];
}) {
  const records = opts.records ?? [];
  return mockApi({
    '/device/get-device': () =>
      ok({ devices: opts.devices ?? [makeDevice({ lastUpdate: records[0]?.createdAt ?? null })] }),
    '/health/fetch/': () => ok({ healthData: records.slice(0, 1) }),
    '/health/history/': (body) => rawHistory(records, body),
    // The urgent banner's list (none active); unanswered, the banner would say it could not load.
    '/alert/all': () => ok({ alerts: [], nextCursor: null, total: 0, unreadCount: 0 }),
    '/alert/latest/3': () =>
      ok({
        alerts: [
          makeAlert({ _id: 'x1', alertTitle: 'First' }),
          makeAlert({ _id: 'x2', alertTitle: 'Second' }),
          makeAlert({ _id: 'x3', alertTitle: 'Third' }),
        ],
      }),
  });
}
