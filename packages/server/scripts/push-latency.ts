// Ingestion → delivered, for Web Push, webhooks and SMS, against local HTTPS receivers that speak the
// providers' protocols: a push service that decrypts (RFC 8291) and checks VAPID, a webhook receiver
// that verifies the Standard Webhooks signature, a Twilio Messages API that checks the form and the
// Basic credentials. Real server processes (`main.ts`) on a scratch PostgreSQL database; a device
// posts SOS alerts at a fixed rate (open loop: each request leaves on time, whatever the answers).
//
// Runs: 1. receivers healthy (one process): ingestion → delivered per channel; 2. and 3. (another
// process and database) webhook and SMS receivers that answer after 10 s, then refuse connections:
// ingestion's own answer time;
// 4. several processes, one killed with SIGKILL every 10 s and started again: per alert and
// channel, delivered, lost (stored but never delivered) and duplicated (an idempotency id received
// twice; receivers drop those). A drain that runs out of time reads what the outbox still holds
// (queued: late; dead: given up). Prints progress, then the tables. Never fails on time.
//
//   npm run bench:push -w @vitalwatch/server -- [--rate 200] [--seconds 60] [--devices 10] [--processes 3]
//     [--kill-every 10] [--drain 180] [--runs healthy,ingest,killed]
//     [--postgres postgres://postgres@127.0.0.1:5432/postgres]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pushMessageSchema } from '@vitalwatch/shared';
import pg from 'pg';
import { z } from 'zod';
import { PushPeer, selfSignedCert, type TlsIdentity } from '../test/push-peer.ts';
import { TWILIO_TEST, TwilioReceiver } from '../test/twilio-receiver.ts';
import { WebhookReceiver } from '../test/webhook-receiver.ts';
import { Cluster, scratchDatabase } from './bench/cluster.ts';
import { adminAuth, BENCH_ADMIN, type Receivers, setUpDevice } from './bench/setup.ts';
import { CHANNELS, deliveryTable, ingestTable, Tally } from './bench/tally.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    processes: { type: 'string', default: '3' },
    devices: { type: 'string', default: '10' },
    'kill-every': { type: 'string', default: '10' },
    drain: { type: 'string', default: '180' },
    /** Which runs: healthy, ingest (slow and refusing receivers), killed; all by default. */
    runs: { type: 'string', default: 'healthy,ingest,killed' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const rate = z.coerce.number().int().min(1).max(2000).parse(values.rate);
const seconds = z.coerce.number().int().min(1).max(3600).parse(values.seconds);
const devices = z.coerce.number().int().min(1).max(100).parse(values.devices);
const processes = z.coerce.number().int().min(2).max(8).parse(values.processes);
const killEverySeconds = z.coerce.number().min(1).max(600).parse(values['kill-every']);
const drainSeconds = z.coerce.number().int().min(0).max(3600).parse(values.drain);
const runs = new Set(values.runs.split(','));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/** The receivers of one cluster, each arrival counted by every run that sent the alert. */
async function startReceivers(identity: TlsIdentity, tallies: () => Tally[]): Promise<Receivers> {
  const peer = await PushPeer.start(identity);
  const webhooks = await WebhookReceiver.start(identity);
  const twilio = await TwilioReceiver.start(identity);
  const hookBody = z.object({ alert: z.object({ message: z.string() }) });
  webhooks.onReceived = (hook) => {
    const parsed = hookBody.safeParse(JSON.parse(hook.body));
    if (!hook.verified || !parsed.success) return;
    for (const t of tallies())
      t.arrive('webhook', parsed.data.alert.message, String(hook.headers['webhook-id']), hook.at);
  };
  twilio.onAccepted = (message) => {
    const key = /bench [a-z]+-\d+/.exec(message.body)?.[0];
    if (key) for (const t of tallies()) t.arrive('sms', key, `${message.to} ${message.body}`, message.at);
  };
  return { peer, webhooks, twilio };
}

/**
 * Send `rate` alerts a second for `seconds`, from each device in turn, each to the next process
 * up; resolves when all are answered.
 */
async function drive(tally: Tally, cluster: Cluster, apiKeys: string[], label: string): Promise<void> {
  const total = rate * seconds;
  const began = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < total; n++) {
    const wait = began + (n * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const key = `bench ${label}-${n}`;
    const member = cluster.next();
    tally.leaving(key, performance.now());
    if (!member) {
      tally.answer(key, null, performance.now());
      continue;
    }
    const request: Promise<void> = fetch(`${member.url}/api/v1/ingest/alert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKeys[n % apiKeys.length] ?? '' },
      body: JSON.stringify({ alertType: 'SOS', alertTitle: key, alertMessage: key }),
      signal: AbortSignal.timeout(30_000),
    })
      .then(
        async (res) => {
          await res.arrayBuffer();
          tally.answer(key, res.status, performance.now());
        },
        (error: unknown) =>
          tally.answer(
            key,
            error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : null,
            performance.now(),
          ),
      )
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
}

function progress(tally: Tally, cluster: Cluster, since: number): string {
  const channels = CHANNELS.map((c) => `${c} ${tally.delivered(c)}`).join(', ');
  const up = cluster.members.filter((m) => m.up).length;
  return `  [${tally.name}] ${elapsed(since)}: sent ${tally.sent}, stored ${tally.answered}; delivered ${channels}; processes up ${up}/${cluster.members.length}, killed ${cluster.kills}`;
}

/**
 * The outbox when a drain ran out of time, from the database: jobs still queued and dead-lettered,
 * by kind. "Not delivered" that is still queued is late (a slow or loaded machine), not lost.
 */
async function outboxLeft(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ kind: string; status: string; n: string }>(
      `select kind, status, count(*)::text as n from notification_jobs
       where kind <> 'fallback' group by kind, status order by kind, status`,
    );
    const dead = await client.query<{ kind: string; error: string; attempts: number; n: string }>(
      `select kind, left(coalesce(last_error, ''), 80) as error, attempts, count(*)::text as n
       from notification_jobs where status = 'dead' group by 1, 2, 3 order by count(*) desc limit 6`,
    );
    const why = dead.rows.map((r) => `${r.kind} "${r.error}" after ${r.attempts} tries: ${r.n}`);
    const held = rows.map((r) => `${r.kind} ${r.status} ${r.n}`).join(', ') || 'empty';
    return why.length > 0 ? `${held}; dead because ${why.join('; ')}` : held;
  } finally {
    await client.end();
  }
}

/** Wait until every stored alert is delivered on every channel, or `drainSeconds` pass. */
async function drain(tally: Tally, cluster: Cluster, since: number, databaseUrl: string): Promise<void> {
  const until = performance.now() + drainSeconds * 1000;
  while (performance.now() < until && CHANNELS.some((c) => tally.missing(c) > 0)) await sleep(250);
  tally.drained = CHANNELS.every((c) => tally.missing(c) === 0);
  console.log(progress(tally, cluster, since));
  if (!tally.drained) {
    tally.outboxLeft = await outboxLeft(databaseUrl).catch((e: unknown) => `not read (${String(e)})`);
    console.log(`  outbox when the drain ended (fanout: an alert not yet expanded): ${tally.outboxLeft}`);
  }
}

/** A run with progress every 5 s while it sends (and, when `draining`, until all is delivered). */
async function run(
  tally: Tally,
  cluster: Cluster,
  apiKeys: string[],
  label: string,
  options: { draining: boolean; killing: boolean; databaseUrl: string },
): Promise<void> {
  const since = performance.now();
  console.log(`\n${tally.name}: ${rate} alerts/s for ${seconds} s from ${devices} devices`);
  const ticker = setInterval(() => console.log(progress(tally, cluster, since)), 5000);
  let sending = true;
  const killer = (async () => {
    let last = performance.now();
    while (options.killing && sending) {
      await sleep(Math.max(0, last + killEverySeconds * 1000 - performance.now()));
      if (!sending) break;
      last = performance.now();
      await cluster.killOne();
    }
  })();
  try {
    await drive(tally, cluster, apiKeys, label);
    sending = false;
    await killer;
    if (options.draining) await drain(tally, cluster, since, options.databaseUrl);
  } finally {
    sending = false;
    clearInterval(ticker);
  }
}

/** Server processes on a new scratch database with their own receivers and watchers. */
async function cluster(count: number, identity: TlsIdentity, caFile: string, tallies: () => Tally[]) {
  const database = await scratchDatabase(values.postgres);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-push-bench-'));
  const receivers = await startReceivers(identity, tallies);
  const servers = new Cluster({
    NODE_EXTRA_CA_CERTS: caFile,
    // The local receivers are on 127.0.0.1, which the endpoint rules refuse but for tests.
    NODE_ENV: 'test',
    PUSH_TEST_ONLY_HOSTS: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MQTT_PORT: '0',
    LOG_LEVEL: 'error',
    INGEST_RATE_PER_DEVICE: '100000',
    SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    TWILIO_ACCOUNT_SID: TWILIO_TEST.accountSid,
    TWILIO_AUTH_TOKEN: TWILIO_TEST.authToken,
    TWILIO_FROM: TWILIO_TEST.from,
    TWILIO_API_URL: receivers.twilio.origin,
  });
  const close = async () => {
    await servers.stop();
    await Promise.all([receivers.peer.close(), receivers.webhooks.close(), receivers.twilio.close()]);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await servers.start(count);
    const first = servers.members[0];
    if (!first) throw new Error('no process');
    const admin = await adminAuth(first.url);
    const watched = await Promise.all(
      Array.from({ length: devices }, (_, n) => setUpDevice(first.url, admin, receivers, n)),
    );
    const browsers = new Map(watched.map((w) => [new URL(w.browser.endpoint).pathname, w.browser]));
    const apiKeys = watched.map((w) => w.apiKey);
    receivers.peer.onDelivered = (request) => {
      const browser = browsers.get(request.path);
      if (!browser) return;
      const message = pushMessageSchema.parse(JSON.parse(browser.decrypt(request.body)));
      for (const t of tallies()) t.arrive('push', message.body, message.notificationId ?? '', request.at);
      // As the service worker does: report the push shown, so the fallback ladder has its receipt.
      const member = servers.next();
      if (member && message.receiptToken)
        fetch(`${member.url}/api/v1/push/receipt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: message.receiptToken, event: 'shown' }),
        }).catch(() => undefined);
    };
    return { servers, receivers, apiKeys, close, databaseUrl: database.url };
  } catch (error) {
    await close();
    throw error;
  }
}

async function main() {
  const identity = selfSignedCert();
  const caDir = mkdtempSync(path.join(tmpdir(), 'vw-push-bench-ca-'));
  const caFile = path.join(caDir, 'receivers-ca.pem');
  writeFileSync(caFile, identity.cert);
  const tallies: Tally[] = [];
  const current = () => tallies;
  const began = performance.now();
  let healthy: Tally | undefined;
  let killed: Tally | undefined;
  try {
    // The healthy run on a cluster of its own: what its drain leaves queued is not sent later to
    // the slow and closed receivers of the next runs (and then counted as not delivered).
    if (runs.has('healthy')) {
      const first = await cluster(1, identity, caFile, current);
      try {
        healthy = new Tally('1 process, receivers healthy');
        tallies.push(healthy);
        await run(healthy, first.servers, first.apiKeys, 'healthy', {
          draining: true,
          killing: false,
          databaseUrl: first.databaseUrl,
        });
      } finally {
        await first.close();
      }
    }

    if (runs.has('ingest')) {
      const one = await cluster(1, identity, caFile, current);
      try {
        const slow = new Tally('webhook+SMS answer after 10 s');
        tallies.push(slow);
        one.receivers.webhooks.delayMs = 10_000;
        one.receivers.twilio.delayMs = 10_000;
        await run(slow, one.servers, one.apiKeys, 'slow', {
          draining: false,
          killing: false,
          databaseUrl: one.databaseUrl,
        });

        const down = new Tally('webhook+SMS refuse connections');
        tallies.push(down);
        await Promise.all([one.receivers.webhooks.close(), one.receivers.twilio.close()]);
        await run(down, one.servers, one.apiKeys, 'down', {
          draining: false,
          killing: false,
          databaseUrl: one.databaseUrl,
        });
      } finally {
        await one.close();
      }
    }

    if (runs.has('killed')) {
      const many = await cluster(processes, identity, caFile, current);
      try {
        killed = new Tally(`${processes} processes, SIGKILL every ${killEverySeconds} s`);
        tallies.push(killed);
        await run(killed, many.servers, many.apiKeys, 'killed', {
          draining: true,
          killing: true,
          databaseUrl: many.databaseUrl,
        });
        console.log(`  processes killed: ${many.servers.kills}`);
      } finally {
        await many.close();
      }
    }
  } finally {
    rmSync(caDir, { recursive: true, force: true });
  }
  console.log(`\nSOS alerts at ${rate}/s for ${seconds} s per run, PostgreSQL, total ${elapsed(began)}`);
  console.log('\nIngestion → delivered (first arrival at the receiver):');
  const delivered = [healthy, killed].filter((t) => t !== undefined);
  console.log(deliveryTable(delivered));
  for (const t of delivered)
    console.log(
      t.drained
        ? `  ${t.name}: every stored alert delivered on every channel: not delivered 0 means lost 0.`
        : `  ${t.name}: the drain (${drainSeconds} s) ended first; the outbox then held: ${t.outboxLeft} (queued: late, not lost; dead: given up).`,
    );
  console.log('\nIngestion answer time (the device waits for this) by receivers’ state:');
  console.log(ingestTable(tallies));
  if (killed) {
    const lostAnswers = CHANNELS.map((c) => killed.channel(c));
    console.log(
      `\nKilled run: ${lostAnswers[0]?.unanswered ?? 0} requests found their process gone (connection refused or reset); of those, delivered anyway: ${CHANNELS.map((c, i) => `${c} ${lostAnswers[i]?.unansweredDelivered ?? 0}`).join(', ')}.`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
