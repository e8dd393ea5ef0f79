import { defineConfig } from 'vitest/config';

/**
 * Test files that share the machine's Redis or Mosquitto with wildcard subscriptions or
 * channel-wide broadcasts, run a cluster behind HAProxy, or compare timings (the forgot-password
 * answer's, in account-self-service): they run after the rest, one at a time.
 * Every other file has its own databases and ports, so two run at once.
 */
const sharedServices = [
  'packages/server/test/account-self-service.test.ts',
  // Drops its database's packets; closing after that hung past the hook's 60 s twice under load.
  'packages/server/test/db-faults.test.ts',
  'packages/server/test/chaos-haproxy.test.ts',
  'packages/server/test/cluster.test.ts',
  'packages/server/test/failure-throttle.test.ts',
  'packages/server/test/mqtt-external.test.ts',
  'packages/server/test/openapi.test.ts',
  'packages/server/test/realtime-sessions.test.ts',
  'packages/server/test/redis-outage.test.ts',
  'packages/simulator/test/bench-device.test.ts',
];
const inPackage = (pkg: string) =>
  sharedServices
    .filter((f) => f.startsWith(`packages/${pkg}/`))
    .map((f) => f.slice(`packages/${pkg}/`.length));

const serverTimeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
const serverGlobalSetup = 'packages/server/test/global-setup.ts';

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './packages/server',
          include: ['test/**/*.test.ts'],
          exclude: inPackage('server'),
          environment: 'node',
          globalSetup: [`../../${serverGlobalSetup}`],
          ...serverTimeouts,
        },
      },
      {
        test: {
          name: 'simulator',
          root: './packages/simulator',
          include: ['test/**/*.test.ts'],
          exclude: inPackage('simulator'),
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      './packages/web/vitest.config.ts',
      {
        test: {
          name: 'shared-services',
          root: '.',
          include: sharedServices,
          environment: 'node',
          globalSetup: [serverGlobalSetup],
          ...serverTimeouts,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
