import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import type { Audience, EscalationStep } from '../src/lib/events.ts';
import { createDevice, postAlert } from './device-helpers.ts';
import { createAdmin, signup, type TestUser, testConfig } from './helpers.ts';
import { scratchDatabase } from './process-api.ts';
import { serviceUrl } from './realtime-helpers.ts';

const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const MINUTE = 60_000;

/**
 * Escalation steps are durable jobs in the database: several server instances (each with its own
 * pool, as separate processes have) take each due step once, and an instance started after
 * another stopped carries on where it left off.
 */
describe.skipIf(!databaseUrl)('escalation across server instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  const apps: BuiltApp[] = [];
  const start = async () => {
    const built = await buildApp(
      testConfig({
        databaseUrl: database.url,
        ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
      }),
    );
    await built.app.ready();
    apps.push(built);
    return built;
  };

  beforeAll(async () => {
    database = await scratchDatabase(databaseUrl!);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.app.close()));
    await database?.drop();
  });

  /** Every escalation step any of these instances announces, by alert id. */
  function recordSteps(instances: BuiltApp[]) {
    const steps = new Map<string, number[]>();
    const listener = (_a: Audience, s: EscalationStep) => {
      steps.set(s.alert._id, [...(steps.get(s.alert._id) ?? []), s.step]);
    };
    for (const i of instances) i.ctx.events.on('escalation', listener);
    return {
      steps,
      stop: () => {
        for (const i of instances) i.ctx.events.off('escalation', listener);
      },
    };
  }

  async function fallsOn(built: BuiltApp, admin: TestUser, count: number) {
    const [carer, backup] = [await signup(built), await signup(built)];
    const device = await createDevice(built, admin, {
      users: [carer.user._id, backup.user._id],
      backupUsers: [backup.user._id],
    });
    const t0 = Date.now();
    await postAlert(
      built,
      device.apiAuthCode,
      Array.from({ length: count }, (_, i) => ({ alertType: i % 2 ? 'SOS' : 'FALL', messageId: `e${i}` })),
    );
    return t0;
  }

  it('three instances running the same due steps at once send each step exactly once', async () => {
    const [a, b, c] = [await start(), await start(), await start()];
    const admin = await createAdmin(a);
    const t0 = await fallsOn(a, admin, 60);
    const record = recordSteps([a, b, c]);
    for (const minutes of [2, 4, 5, 6]) {
      const now = new Date(t0 + minutes * MINUTE + 5000);
      await Promise.all([a, b, c].map((i) => i.ctx.alertEngine.runEscalations(now)));
    }
    record.stop();
    expect(record.steps.size).toBe(60);
    for (const steps of record.steps.values()) expect(steps.sort()).toEqual([1, 2, 3, 4]);
  });

  it('an instance started after another stopped continues the escalation where it was', async () => {
    const first = await start();
    const admin = await createAdmin(first);
    const t0 = await fallsOn(first, admin, 1);
    let record = recordSteps([first]);
    await first.ctx.alertEngine.runEscalations(new Date(t0 + 2 * MINUTE + 5000));
    record.stop();
    expect([...record.steps.values()]).toEqual([[1]]);
    await first.app.close();
    apps.splice(apps.indexOf(first), 1);

    const next = await start();
    record = recordSteps([next]);
    // Down over the 4-minute repeat: one step now, not a burst; then on with the schedule.
    await next.ctx.alertEngine.runEscalations(new Date(t0 + 4 * MINUTE + 30_000));
    await next.ctx.alertEngine.runEscalations(new Date(t0 + 5 * MINUTE + 5000));
    await next.ctx.alertEngine.runEscalations(new Date(t0 + 6 * MINUTE + 40_000));
    record.stop();
    expect([...record.steps.values()]).toEqual([[2, 3, 4]]);
  });
});
