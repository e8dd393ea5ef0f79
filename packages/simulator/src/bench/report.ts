import { cpus } from 'node:os';
import type { CpuUse } from './cpu.ts';

/** One measured phase of one database. */
export interface PhaseResult {
  database: string;
  phase: string;
  figure: string;
  value: number;
  /** Readings in the measured window, to express CPU per reading. */
  readings: number;
  cpu: CpuUse;
  rss: number;
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const log = (line: string) => process.stdout.write(`${line}\n`);

/** The `p`th percentile of `sorted` (ascending) by nearest rank; NaN for none. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

function table(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

export function report(
  results: PhaseResult[],
  opts: { devices: number; duration: number; warmup: number; mqttClient: string },
) {
  const cpu = cpus();
  log(
    `\nVitalWatch benchmark: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), Node ${process.version}`,
  );
  log(
    `${opts.devices} devices (MQTT client: ${opts.mqttClient}), ${opts.duration} s measured per phase after ${opts.warmup} s warm-up; all on this machine.\n`,
  );
  table([
    ['database', 'phase', 'result', 'server RSS'],
    ...results.map((r) => [r.database, r.phase, r.figure, `${r.rss} MB`]),
  ]);
  log('\nWhere the CPU went (% of one core; µs of CPU per reading accepted):');
  const pct = (v: number, wall: number) => `${Math.round((100 * v) / wall)}%`;
  const us = (v: number, n: number) => (n > 0 ? `${Math.round((v * 1e6) / n)} µs` : '–');
  table([
    [
      'database',
      'phase',
      'server',
      'postgres',
      'load generator',
      'other programs',
      'per reading: server',
      'postgres',
      'load',
    ],
    ...results.map(({ database, phase, cpu: c, readings: n }) => [
      database,
      phase,
      pct(c.server, c.wall),
      pct(c.postgres, c.wall),
      pct(c.bench, c.wall),
      pct(c.other, c.wall),
      us(c.server, n),
      us(c.postgres, n),
      us(c.bench, n),
    ]),
  ]);
  const of = (database: string, phase: string) =>
    results.find((r) => r.database === database && r.phase.startsWith(phase));
  const raw = of('postgres', 'raw insert')?.value;
  const share = (phase: string) => {
    const v = of('postgres', phase)?.value;
    return v === undefined || raw === undefined ? '' : ` (now ${Math.round((100 * v) / raw)} % of it)`;
  };
  /** A quarter of the raw insert rate: not measured unless both were. */
  const quarterOfRaw = (v: number) => (raw === undefined ? undefined : v >= raw / 4);
  const targets: [label: string, database: string, phase: string, ok: (v: number) => boolean | undefined][] =
    [
      [
        '≥ 15,000 readings/s over MQTT QoS 1 on PostgreSQL',
        'postgres',
        'MQTT throughput',
        (v) => v >= 15_000,
      ],
      [
        `MQTT ≥ 25 % of the raw insert rate${share('MQTT throughput')}`,
        'postgres',
        'MQTT throughput',
        quarterOfRaw,
      ],
      [
        '≥ 20,000 readings/s over batched HTTP on PostgreSQL',
        'postgres',
        'HTTP throughput',
        (v) => v >= 20_000,
      ],
      [
        `HTTP ≥ 25 % of the raw insert rate${share('HTTP throughput')}`,
        'postgres',
        'HTTP throughput',
        quarterOfRaw,
      ],
      [
        'p99 device→socket latency < 50 ms at 1,000 readings/s over MQTT',
        'postgres',
        'latency at',
        (v) => v < 50,
      ],
      ['p99 < 100 ms over HTTP, one reading per request', 'postgres', 'HTTP latency', (v) => v < 100],
      ['≥ 3,000 readings/s on PGlite (MQTT)', 'pglite', 'MQTT throughput', (v) => v >= 3_000],
    ];
  log('\nTargets (issue 10), beside the raw multi-row insert rate measured in this run:');
  for (const [label, database, phase, ok] of targets) {
    const result = of(database, phase);
    const met = result && ok(result.value);
    log(`  ${met === undefined ? 'not measured' : met ? 'met' : 'NOT met'}: ${label}`);
  }
}
