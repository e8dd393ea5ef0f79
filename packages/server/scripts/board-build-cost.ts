// What one build of a 1,000-device board costs the event loop, in main-thread CPU (not wall time:
// on a shared machine another process's turn would count as ours): the whole build, and its longest
// task (the CPU between two turns of a setImmediate ticker), which is what every request arriving
// meanwhile waits behind. Seeds a scratch PostgreSQL database as `npm run bench -- --phases board`.
//   node packages/server/scripts/board-build-cost.ts [builds=30] [devices=1000]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { scratchDatabase } from '../test/scratch-database.ts';

const builds = Number(process.argv[2] ?? 30);
const deviceCount = Number(process.argv[3] ?? 1000);
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = await scratchDatabase(serverUrl, 'vw_boardcost');
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
try {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: scratch.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-boardcost-')),
    LOG_LEVEL: 'warn',
    MQTT_PORT: '0',
  });
  const { app, ctx } = await buildApp(config);
  await app.ready();
  const admin = await ctx.users.createUser({
    fullName: 'Cost Admin',
    username: 'costadmin',
    email: 'costadmin@example.com',
    password: 'Adm1nPassw0rd',
    role: 'admin',
  });
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  for (const q of [
    `insert into devices (device_name, activation_code, api_auth_code, last_update, battery)
     select 'Board wristband ' || lpad(n::text, 4, '0'), upper(substr(md5('b' || n), 1, 8)),
            md5('c' || n) || md5('d' || n), now(), (n % 100)::real from generate_series(1, ${deviceCount}) n`,
    `insert into device_users (device_id, user_id) select d.id, '${admin.id}' from devices d`,
    `update users set email_verified_at = now()`,
    `insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery)
     select now(), d.seq, 90 + d.seq % 10, 60 + d.seq % 40, 36.8, d.battery from devices d`,
    `insert into health_rollups_minute (bucket, device_seq, readings, heart_rate_sum, heart_rate_count, spo2_sum, spo2_count)
     select date_trunc('minute', now()) - make_interval(mins => m), d.seq, 60, 60 * (61.37 + m % 17), 60, 60 * (95.73 + m % 3), 60
     from devices d cross join generate_series(1, 60) m`,
    `insert into alerts (device_id, alert_type, alert_title, alert_message, priority, recorded_at)
     select d.id, 'HEART_RATE_HIGH', 'High heart rate', 'Heart rate 131 bpm is above the limit', 'medium', now()
     from devices d where d.seq % 10 = 0`,
    'analyze',
  ])
    await db.query(q);
  await db.end();

  const totals: number[] = [];
  const longest: number[] = [];
  const cold: string[] = [];
  let bytes = 0;
  for (let i = 0; i < builds; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    let running = true;
    let last = cpuMs();
    let max = 0;
    const tick = () => {
      const now = cpuMs();
      max = Math.max(max, now - last);
      last = now;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const start = cpuMs();
    const reply = await ctx.board.reply(admin.id, new Date());
    const total = cpuMs() - start;
    running = false;
    tick();
    bytes = reply.json.byteLength;
    if (i < 3) cold.push(`${total.toFixed(1)} / ${max.toFixed(1)}`);
    else {
      totals.push(total);
      longest.push(max);
    }
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1);
    return `median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${s.at(-1)!.toFixed(1)} ms`;
  };
  console.log(
    `board of ${deviceCount} devices, ${(bytes / 1000).toFixed(1)} kB, ${totals.length} builds (after 3 warm-up)`,
  );
  console.log(`  main-thread CPU per build: ${stats(totals)}`);
  console.log(`  longest task of a build:   ${stats(longest)}`);
  console.log(`  first 3 builds (cold JIT), CPU / longest task: ${cold.join(', ')} ms`);
  await app.close();
} finally {
  await scratch.drop();
}
