import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dbTargets, signup, useTestApp, verifyEmail } from './helpers.ts';

const DEVICES = 2000;
/**
 * The most main-thread CPU one task of a build may take. Counted in CPU, not wall time, so a busy
 * machine does not fail it: with zod over every row and the whole reply, one task of this build
 * took 53 to 58 ms on the test machine; sliced, 16.
 */
const LONGEST_TASK_MS = 30;

const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/**
 * Issue 25's p99: a board build must not hold up the requests that arrive while it runs. On
 * PostgreSQL only: PGlite runs each query on the event loop itself, so its tasks are as long as
 * its queries, whatever the board's own code does.
 */
describe.each(dbTargets().filter((t) => t.name === 'postgres'))(
  'a board of many devices is built in short tasks, on $name',
  (target) => {
    const built = useTestApp(target, {
      ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
      notifications: { pollMs: 0 },
    });

    it(`no task of a ${DEVICES}-device build takes over ${LONGEST_TASK_MS} ms of CPU`, async () => {
      const carer = await signup(built());
      await verifyEmail(built(), carer);
      const { db } = built().ctx;
      await db.execute(sql`
        insert into devices (device_name, activation_code, api_auth_code, last_update, battery)
        select 'Slice wristband ' || n || ' ' || ${carer.user._id}, upper(substr(md5(${carer.user._id} || 'a' || n), 1, 8)),
          md5(${carer.user._id} || 'c' || n) || md5('d' || n), now(), (n % 100)::real
        from generate_series(1, ${DEVICES}::int) n`);
      const mine = sql`(select id from devices where device_name like ${`Slice wristband % ${carer.user._id}`})`;
      await db.execute(
        sql`insert into device_users (device_id, user_id) select id, ${carer.user._id}::uuid from devices where id in ${mine}`,
      );
      await db.execute(sql`
        insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery)
        select now(), d.seq, 90 + d.seq % 10, 60 + d.seq % 40, 36.8, d.battery from devices d where d.id in ${mine}`);
      await db.execute(sql`
        insert into health_rollups_minute (bucket, device_seq, readings, heart_rate_sum, heart_rate_count, spo2_sum, spo2_count)
        select date_trunc('minute', now()) - make_interval(mins => m), d.seq, 60, 60 * (61.37 + m % 17), 60, 60 * (95.73 + m % 3), 60
        from devices d cross join generate_series(1, 60) m where d.id in ${mine}`);
      await db.execute(sql`
        insert into alerts (device_id, alert_type, alert_title, alert_message, priority, recorded_at)
        select d.id, 'HEART_RATE_HIGH', 'High heart rate', 'Heart rate 131 bpm', 'medium', now()
        from devices d where d.seq % 10 = 0 and d.id in ${mine}`);

      // The CPU between two turns of a ticker: the longest task that ran during one build.
      const longestTaskOfABuild = async () => {
        let running = true;
        let last = cpuMs();
        let longest = 0;
        const tick = () => {
          const now = cpuMs();
          longest = Math.max(longest, now - last);
          last = now;
          if (running) setImmediate(tick);
        };
        setImmediate(tick);
        // Asked with `after` now: a fresh build, never the one before.
        const reply = await built().ctx.board.reply(carer.user._id, new Date());
        running = false;
        tick();
        expect(JSON.parse(reply.json.toString()).data.devices).toHaveLength(DEVICES);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return longest;
      };
      // The first build also compiles the board's code; then the best of three, so a garbage
      // collection that happens to land in one build does not decide (unsliced, every build had a
      // task of 53 ms or more).
      await longestTaskOfABuild();
      const longest = [];
      for (let i = 0; i < 3; i++) longest.push(await longestTaskOfABuild());
      console.info(
        `board of ${DEVICES} devices: longest task ${longest.map((ms) => ms.toFixed(1)).join(', ')} ms of CPU`,
      );
      expect(Math.min(...longest)).toBeLessThanOrEqual(LONGEST_TASK_MS);
    });
  },
);
