import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type CpuUse, cpuBetween, cpuSnapshot } from './cpu.ts';
import { percentile } from './report.ts';

/**
 * The load generators of the HTTP read benchmarks. Lean on purpose: `LoadWorker` runs them in a
 * thread of their own (see `load-worker.ts`), so this module imports only Node's own modules and
 * two of this folder's that do the same (`cpu.ts`, `report.ts`).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One GET as a browser asks (`Accept-Encoding: br, gzip`): status, and the body as sent. */
function get(
  agent: Agent,
  url: URL,
  token: string,
): Promise<{ status: number; encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' },
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const decoded = (r: { encoding?: string; body: Buffer }) =>
  r.encoding === 'br' ? brotliDecompressSync(r.body) : r.encoding === 'gzip' ? gunzipSync(r.body) : r.body;

export interface MeasureOptions {
  serverUrl: string;
  /** The admin's access token every request carries. */
  adminToken: string;
  connections: number;
  requests: number;
}

export interface Measured {
  p50: number;
  p99: number;
  /** One answer's bytes as JSON. */
  bytes: number;
  /** The same answer's bytes as sent (compressed). */
  sent: number;
}

/**
 * `requests` GETs of `path` on `connections` at once, asked as a browser asks (compressed): p50 and
 * p99 to the last byte, and the bytes of one answer as JSON and as sent. The answers are not
 * decompressed while timed: that is the browser's work on its own machine, and here it took the
 * two cores the server is measured on (fetch inflated every answer).
 */
export async function measure(o: MeasureOptions, path: string): Promise<Measured> {
  const url = new URL(path, o.serverUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const times: number[] = [];
  let last: { encoding?: string; body: Buffer } | undefined;
  let next = 0;
  const worker = async () => {
    while (next < o.requests) {
      next += 1;
      const started = performance.now();
      const res = await get(agent, url, o.adminToken);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${decoded(res).toString()}`);
      times.push(performance.now() - started);
      last = res;
    }
  };
  try {
    await Promise.all(Array.from({ length: o.connections }, worker));
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    bytes: last ? decoded(last).byteLength : 0,
    sent: last?.body.byteLength ?? 0,
  };
}

export interface Read {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
  /**
   * A list's reader: a family member, who sees a few devices, or a care team member, who sees every
   * device of the bench. Absent for a single device's reads (made as a team member: the same access
   * check either way).
   */
  who?: 'family' | 'team';
}

/** How many devices a family member and a care team member see in the reads phase. */
export interface ListSizes {
  family: number;
  team: number;
}

/**
 * The reads of the dashboard, Health Trends and Alerts pages, `/healthz` first as the yardstick.
 * Each list is read by a family member and by a care team member: the labels say how many devices.
 */
export function dashboardReads(deviceId: string, sizes: ListSizes): Read[] {
  const history = (label: string, span: number): Read => ({
    label: `history ${label}`,
    method: 'POST',
    path: `/api/v1/health/history/${deviceId}`,
    body: () => {
      const to = Date.now();
      return { from: new Date(to - span).toISOString(), to: new Date(to).toISOString() };
    },
  });
  const list = (label: string, path: string, body: () => unknown): Read[] =>
    (['family', 'team'] as const).map((who) => ({
      label: `${label} (${sizes[who]} devices)`,
      method: 'POST',
      path,
      body,
      who,
    }));
  return [
    { label: 'GET /healthz', method: 'GET', path: '/healthz' },
    { label: 'user/profile', method: 'GET', path: '/api/v1/user/profile' },
    ...list('device/get-device', '/api/v1/device/get-device', () => ({})),
    {
      label: 'health/fetch (newest)',
      method: 'POST',
      path: `/api/v1/health/fetch/${deviceId}`,
      body: () => ({ limit: 1 }),
    },
    history('1 h', HOUR),
    history('24 h', DAY),
    history('7 d', 7 * DAY),
    ...list('alert/latest/3', '/api/v1/alert/latest/3', () => ({})),
    ...list('alert/all (a page)', '/api/v1/alert/all', () => ({ limit: 20 })),
  ];
}

export interface ReadResult {
  label: string;
  who?: Read['who'];
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered in the measured window, refused ones too. */
  requests: number;
  /** CPU used in the measured window by the server, PostgreSQL, the bench's process (with `serverPid`). */
  cpu?: CpuUse;
}

export interface LoadReadOptions {
  serverUrl: string;
  /** One user a connection: of the read's `who`, or a team member. */
  tokens: string[];
  /** The device whose dashboard is read, and which of its reads (`dashboardReads`' label). */
  deviceId: string;
  sizes: ListSizes;
  label: string;
  warmupMs: number;
  durationMs: number;
  /** The server's process, on this machine: the window's CPU is sampled at its edges (Linux). */
  serverPid?: number;
}

/**
 * `tokens.length` keep-alive connections, each sending one of the dashboard's reads back to back
 * as its own user (one token each: per-user limits such as the heavy-read slots apply as they
 * would to 20 people), for `warmupMs` then `durationMs` measured.
 */
export async function loadRead(o: LoadReadOptions): Promise<ReadResult> {
  const read = dashboardReads(o.deviceId, o.sizes).find((r) => r.label === o.label);
  if (!read) throw new Error(`no dashboard read labelled ${o.label}`);
  const url = new URL(o.serverUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: o.tokens.length });
  const times: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  const once = (token: string) =>
    new Promise<number>((resolve, reject) => {
      const body = read.body ? JSON.stringify(read.body()) : undefined;
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: read.method,
          path: read.path,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const worker = async (token: string) => {
    while (!stop) {
      const t0 = performance.now();
      const status = await once(token).catch(() => 0);
      if (!measuring) continue;
      if (status === 200) times.push(performance.now() - t0);
      else errors++;
    }
  };
  const workers = o.tokens.map(worker);
  // Where /proc cannot be read the read is timed all the same, its CPU not reported.
  const sample = () => {
    try {
      return o.serverPid ? cpuSnapshot(o.serverPid) : undefined;
    } catch {
      return undefined;
    }
  };
  await new Promise((r) => setTimeout(r, o.warmupMs));
  const cpuAtStart = sample();
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, o.durationMs));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  const cpuAtEnd = cpuAtStart && sample();
  const cpu = cpuAtStart && cpuAtEnd && cpuBetween(cpuAtStart, cpuAtEnd);
  stop = true;
  await Promise.all(workers);
  agent.destroy();
  const sorted = times.sort((a, b) => a - b);
  return {
    label: o.label,
    who: read.who,
    perSecond: times.length / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors,
    requests: times.length + errors,
    ...(cpu ? { cpu } : {}),
  };
}
