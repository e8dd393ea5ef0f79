import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuBetween } from '../src/bench/cpu.ts';
import { dashboardReads } from '../src/bench/http-load.ts';
import { withLoadWorker } from '../src/bench/load-worker.ts';

// The benchmarks' load generator, run in its worker thread against a real HTTP server on a
// socket: what it counts, times and sizes is what the server did.
const BODY = JSON.stringify({ success: true, data: { rows: 'x'.repeat(5_000) } });
const seen: { url: string; method: string; token: string; encoding: string; body: string }[] = [];
let server: Server;
let url: string;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    seen.push({
      url: req.url ?? '',
      method: req.method ?? '',
      token: req.headers.authorization ?? '',
      encoding: String(req.headers['accept-encoding']),
      body,
    });
    if (req.url === '/refused') {
      res.writeHead(403).end('{"success":false}');
      return;
    }
    // 20 ms for the slowest: p99 sees it, p50 does not.
    if (seen.length % 50 === 0) await new Promise((r) => setTimeout(r, 20));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
    res.end(brotliCompressSync(BODY));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const sizes = { family: 3, team: 200 };

describe('the load worker', () => {
  it('asks a path as a browser does, and reports its percentiles and sizes', async () => {
    seen.length = 0;
    const result = await withLoadWorker((load) =>
      load.measure({ serverUrl: url, adminToken: 'tok', connections: 4, requests: 200 }, '/list?q=a'),
    );
    expect(seen).toHaveLength(200);
    expect(new Set(seen.map((s) => `${s.method} ${s.url} ${s.token} ${s.encoding}`))).toEqual(
      new Set(['GET /list?q=a Bearer tok br, gzip']),
    );
    expect(result.bytes).toBe(Buffer.byteLength(BODY));
    expect(result.sent).toBe(brotliCompressSync(BODY).byteLength);
    expect(result.sent).toBeLessThan(result.bytes);
    expect(result.p50).toBeLessThan(result.p99);
    expect(result.p99).toBeGreaterThanOrEqual(20);
  });

  it("fails the call with the server's answer when a request is refused", async () => {
    await expect(
      withLoadWorker((load) =>
        load.measure({ serverUrl: url, adminToken: 'tok', connections: 1, requests: 1 }, '/refused'),
      ),
    ).rejects.toThrow('/refused: 403 {"success":false}');
  });

  it("sends a dashboard's read from each user's connection, timed after the warm-up only", async () => {
    seen.length = 0;
    const deviceId = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const result = await withLoadWorker((load) =>
      load.loadRead({
        serverUrl: url,
        tokens: ['one', 'two'],
        deviceId,
        sizes,
        label: 'history 24 h',
        warmupMs: 100,
        durationMs: 300,
      }),
    );
    const read = dashboardReads(deviceId, sizes).find((r) => r.label === 'history 24 h')!;
    expect(new Set(seen.map((s) => `${s.method} ${s.url}`))).toEqual(new Set([`POST ${read.path}`]));
    expect(new Set(seen.map((s) => s.token))).toEqual(new Set(['Bearer one', 'Bearer two']));
    const { from, to } = JSON.parse(seen.at(-1)!.body) as { from: string; to: string };
    expect(Date.parse(to) - Date.parse(from)).toBe(24 * 3_600_000);
    expect(result).toMatchObject({ label: 'history 24 h', errors: 0 });
    // Requests before the warm-up ended are not counted, and none after the window.
    expect(result.perSecond * 0.3).toBeLessThan(seen.length);
    expect(result.perSecond).toBeGreaterThan(0);
  });

  it('reads each list as a family member and as a care team member, and says whose read it timed', async () => {
    const lists = dashboardReads('d', sizes).filter((r) => r.who);
    expect(lists.map((r) => `${r.label} ${r.who}`)).toEqual([
      'device/get-device (3 devices) family',
      'device/get-device (200 devices) team',
      'alert/latest/3 (3 devices) family',
      'alert/latest/3 (200 devices) team',
      'alert/all (a page) (3 devices) family',
      'alert/all (a page) (200 devices) team',
    ]);
    const result = await withLoadWorker((load) =>
      load.loadRead({
        serverUrl: url,
        tokens: ['one'],
        deviceId: 'd',
        sizes,
        label: 'alert/latest/3 (3 devices)',
        warmupMs: 0,
        durationMs: 100,
      }),
    );
    expect(result).toMatchObject({ label: 'alert/latest/3 (3 devices)', who: 'family' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/alert/latest/3' });
  });

  it.runIf(process.platform === 'linux')(
    "says how much CPU the server's process and the bench's spent on each read",
    async () => {
      // A server in a process of its own that spends 2 ms of CPU on each request (CPU, not wall
      // time: a loaded machine may take its core away).
      const busy = spawn(process.execPath, [
        '-e',
        `require('node:http').createServer((q, s) => { const t = process.cpuUsage(); for (let u = process.cpuUsage(t); u.user + u.system < 2000; u = process.cpuUsage(t)); q.resume(); q.on('end', () => s.end('{}')); })
          .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ]);
      try {
        const [port] = (await once(busy.stdout, 'data')) as [Buffer];
        const result = await withLoadWorker((load) =>
          load.loadRead({
            serverUrl: `http://127.0.0.1:${String(port).trim()}`,
            tokens: ['one', 'two'],
            deviceId: 'd',
            sizes,
            label: 'user/profile',
            warmupMs: 100,
            durationMs: 1_000,
            serverPid: busy.pid!,
          }),
        );
        const cpu = result.cpu!;
        expect(cpu.wall).toBeGreaterThan(0.9);
        expect(result.requests).toBeGreaterThan(100);
        // 2 ms a request, read from /proc in 10 ms ticks over about 500 requests.
        expect(cpu.server / result.requests).toBeGreaterThan(0.0018);
        expect(cpu.server / result.requests).toBeLessThan(0.005);
        // The bench's process (this one) only sent them: some CPU, not the server's.
        expect(cpu.bench).toBeGreaterThan(0);
        expect(cpu.bench / result.requests).toBeLessThan(0.0015);
      } finally {
        busy.kill();
      }
    },
  );
});

describe('CPU between two snapshots', () => {
  const snapshot = (
    at: number,
    server: number,
    postgres: [string, number][],
    bench: number,
    busy: number,
  ) => ({
    at,
    server,
    postgres: new Map(postgres),
    bench,
    machine: { busy, total: 2 * (at / 1000) },
  });

  it("sums PostgreSQL's processes one by one: one that started counts from zero, one that exited is left out", () => {
    const a = snapshot(
      0,
      10,
      [
        ['1', 5],
        ['2', 7],
      ],
      3,
      100,
    );
    const b = snapshot(
      2_000,
      11.5,
      [
        ['1', 5.5],
        ['3', 0.25],
      ],
      3.75,
      103.5,
    );
    expect(cpuBetween(a, b)).toEqual({ wall: 2, server: 1.5, postgres: 0.75, bench: 0.75, other: 0.5 });
  });

  it('never reports less than nothing for the other programs', () => {
    const a = snapshot(0, 0, [], 0, 0);
    const b = snapshot(1_000, 1, [], 1, 1.5);
    expect(cpuBetween(a, b).other).toBe(0);
  });
});
