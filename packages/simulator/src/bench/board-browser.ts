import { deviceTopic } from '@vitalwatch/shared';
import type { SimulatedDevice } from '../devices.ts';
import { inChromium } from './browser.ts';
import { type DeviceClient, ReadingSource } from './load.ts';
import { log } from './report.ts';

export interface BoardBrowserOptions {
  serverUrl: string;
  /** A user who sees every device in `devices` (the bench's watcher). */
  user: { username: string; password: string };
  devices: SimulatedDevice[];
  /** Each device's MQTT connection, in the order of `devices`. */
  clients: DeviceClient[];
  chromiumPath?: string;
}

/** Issue 25's targets for the board in Chromium: 200 devices each at 1 Hz for a minute. */
const SECONDS = 60;
const BUSY_TARGET = 0.25;
const LONG_TASK_LIMIT_MS = 100;
const HEAP_GROWTH_TARGET_MB = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The renderer's counters (DevTools `Performance.getMetrics`) by name. */
type Metrics = Record<string, number>;

/**
 * Every device publishes one reading a second over MQTT (QoS 1) for `seconds`, the devices spread
 * evenly over each second as real ones would be. Returns the readings acknowledged and failed.
 */
async function sendAtOneHertz(o: BoardBrowserOptions, seconds: number) {
  let sent = 0;
  let failed = 0;
  const started = performance.now();
  const n = o.clients.length;
  await Promise.all(
    o.clients.map(async (client, i) => {
      const device = o.devices[i]!;
      const source = new ReadingSource(device);
      const topic = deviceTopic(device._id, 'health');
      let due = started + (i * 1000) / n;
      while (due < started + seconds * 1000) {
        await sleep(Math.max(0, due - performance.now()));
        await client.publish(topic, JSON.stringify(source.next())).then(
          () => sent++,
          () => failed++,
        );
        due += 1000;
      }
    }),
  );
  return { sent, failed };
}

/**
 * `--phases board-browser`: the board in Chromium (issue 25), printed, not a timed test. The
 * user's board is opened with every device on it; once every tile is drawn, each device sends a
 * reading a second over MQTT for a minute. Measured through the DevTools protocol on the page:
 * main-thread busy (the renderer's `TaskDuration` over the minute, divided by the minute), long
 * tasks (a `longtask` PerformanceObserver started after the first render) and JS heap growth
 * (`JSHeapUsedSize` after a forced garbage collection, before and after); and the socket frames
 * the page received, to show the updates arrived and how the server batched them.
 */
export async function boardBrowserPhase(o: BoardBrowserOptions): Promise<void> {
  await inChromium('board', o, async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Network.enable');
    let frames = 0;
    let frameBytes = 0;
    cdp.on('Network.webSocketFrameReceived', ({ response }) => {
      frames++;
      frameBytes += response.payloadData.length;
    });
    const metrics = async (): Promise<Metrics> => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics: list } = await cdp.send('Performance.getMetrics');
      return Object.fromEntries(list.map((m) => [m.name, m.value]));
    };

    const opened = performance.now();
    await page.goto('/dashboard/board');
    await page
      .getByTestId('board-tile')
      .nth(o.devices.length - 1)
      .waitFor({ timeout: 60_000 });
    const firstRender = performance.now() - opened;
    await page.evaluate(() => {
      const durations: number[] = [];
      (window as unknown as { longTasks: number[] }).longTasks = durations;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) durations.push(entry.duration);
      }).observe({ type: 'longtask' });
    });

    const before = await metrics();
    const framesBefore = frames;
    const bytesBefore = frameBytes;
    const started = performance.now();
    const { sent, failed } = await sendAtOneHertz(o, SECONDS);
    const elapsedS = (performance.now() - started) / 1000;
    const after = await metrics();
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);

    const busy = ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) / elapsedS;
    const heapGrowthMb = ((after.JSHeapUsedSize ?? 0) - (before.JSHeapUsedSize ?? 0)) / 1e6;
    const overLimit = longTasks.filter((d) => d > LONG_TASK_LIMIT_MS);
    const longest = Math.max(0, ...longTasks);
    const ok = busy <= BUSY_TARGET && overLimit.length === 0 && heapGrowthMb <= HEAP_GROWTH_TARGET_MB;
    log(
      `  board in Chromium: ${o.devices.length} tiles drawn ${firstRender.toFixed(0)} ms after opening; then ${o.devices.length} devices at 1 Hz over MQTT for ${elapsedS.toFixed(0)} s (${sent} readings acknowledged, ${failed} failed)`,
    );
    log(
      `  board in Chromium: main thread busy ${(busy * 100).toFixed(1)} % of the time, ${longTasks.length} long tasks (> 50 ms; ${overLimit.length} over ${LONG_TASK_LIMIT_MS} ms, longest ${longest.toFixed(0)} ms), JS heap ${heapGrowthMb >= 0 ? '+' : ''}${heapGrowthMb.toFixed(1)} MB ` +
        `${ok ? '(within target)' : `(target ≤ ${BUSY_TARGET * 100} %, none over ${LONG_TASK_LIMIT_MS} ms, ≤ ${HEAP_GROWTH_TARGET_MB} MB)`}`,
    );
    log(
      `  board in Chromium: the page received ${((frames - framesBefore) / elapsedS).toFixed(1)} socket frames a second (${((frameBytes - bytesBefore) / elapsedS / 1000).toFixed(1)} kB/s) for ${(sent / elapsedS).toFixed(0)} readings a second`,
    );
  });
}
