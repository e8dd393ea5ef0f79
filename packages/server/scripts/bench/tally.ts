// What one benchmark run counts: each alert sent (and whether ingestion answered 202), and each
// message a local receiver got for it, by channel and idempotency id; then the figures.

export const CHANNELS = ['push', 'webhook', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

interface Arrivals {
  /** performance.now() of the first message for the alert on this channel. */
  first: number;
  /** How many times each idempotency id arrived. */
  ids: Map<string, number>;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** One run's alerts, by their key (the title and message they were sent with). */
export class Tally {
  readonly name: string;
  /** When each alert's ingestion request left. */
  private readonly sentAt = new Map<string, number>();
  /** Alerts that ingestion answered 202 (stored). */
  private readonly accepted = new Set<string>();
  /** Alerts whose request got no answer (the process was killed): stored or not, nobody knows. */
  private readonly unanswered = new Set<string>();
  /** Answers other than 202, by status ('timeout': none within 30 s). */
  readonly refused = new Map<string, number>();
  readonly ingestMs: number[] = [];
  /** Whether every stored alert arrived on every channel before the drain's time ran out. */
  drained = false;
  /** When the drain ran out: the outbox's jobs still queued and dead, by kind (read from the database). */
  outboxLeft = '';
  private readonly arrivals = new Map<Channel, Map<string, Arrivals>>(CHANNELS.map((c) => [c, new Map()]));

  constructor(name: string) {
    this.name = name;
  }

  get sent(): number {
    return this.sentAt.size;
  }

  get answered(): number {
    return this.accepted.size;
  }

  leaving(key: string, at: number): void {
    this.sentAt.set(key, at);
  }

  /** Ingestion answered `status`; null: the connection failed (the process was killed); 'timeout': no answer in time. */
  answer(key: string, status: number | 'timeout' | null, at: number): void {
    const started = this.sentAt.get(key) ?? at;
    if (status === null) this.unanswered.add(key);
    else if (status === 202) {
      this.accepted.add(key);
      this.ingestMs.push(at - started);
    } else this.refused.set(String(status), (this.refused.get(String(status)) ?? 0) + 1);
  }

  /** A receiver got message `id` for alert `key`; other runs' alerts are not counted here. */
  arrive(channel: Channel, key: string, id: string, at: number): void {
    if (!this.sentAt.has(key)) return;
    const byKey = this.arrivals.get(channel);
    const seen = byKey?.get(key);
    if (!seen) byKey?.set(key, { first: at, ids: new Map([[id, 1]]) });
    else seen.ids.set(id, (seen.ids.get(id) ?? 0) + 1);
  }

  /** Alerts stored (202) not yet delivered on `channel`. */
  missing(channel: Channel): number {
    const byKey = this.arrivals.get(channel);
    let n = 0;
    for (const key of this.accepted) if (!byKey?.has(key)) n += 1;
    return n;
  }

  delivered(channel: Channel): number {
    return this.arrivals.get(channel)?.size ?? 0;
  }

  /** Per channel: alerts delivered, lost (stored, never delivered), repeats of an id already received, latencies. */
  channel(channel: Channel) {
    const byKey = this.arrivals.get(channel) ?? new Map<string, Arrivals>();
    let duplicated = 0;
    let messages = 0;
    const latencies: number[] = [];
    for (const [key, seen] of byKey) {
      const started = this.sentAt.get(key);
      if (started !== undefined) latencies.push(seen.first - started);
      for (const count of seen.ids.values()) {
        messages += 1;
        duplicated += count - 1;
      }
    }
    latencies.sort((a, b) => a - b);
    const unansweredDelivered = [...this.unanswered].filter((k) => byKey.has(k)).length;
    return {
      delivered: byKey.size,
      lost: this.missing(channel),
      duplicated,
      messages,
      unansweredDelivered,
      unanswered: this.unanswered.size,
      latencies,
    };
  }
}

const ms = (v: number) =>
  Number.isNaN(v) ? '—' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(0)} ms`;

/** A plain text table, columns padded to their widest cell. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Ingestion → delivered, per run and channel. */
export function deliveryTable(tallies: Tally[]): string {
  const rows = tallies.flatMap((t) =>
    CHANNELS.map((c) => {
      const s = t.channel(c);
      return [
        t.name,
        c,
        `${t.answered}/${t.sent}`,
        String(s.delivered),
        String(s.lost),
        String(s.duplicated),
        ms(percentile(s.latencies, 50)),
        ms(percentile(s.latencies, 99)),
        ms(s.latencies.at(-1) ?? Number.NaN),
      ];
    }),
  );
  return table(
    ['run', 'channel', 'stored (202)/sent', 'delivered', 'not delivered', 'duplicated', 'p50', 'p99', 'max'],
    rows,
  );
}

/** Ingestion's own answer time, per run (the receivers' state is in the run's name). */
export function ingestTable(tallies: Tally[]): string {
  const rows = tallies.map((t) => {
    const s = [...t.ingestMs].sort((a, b) => a - b);
    const push = t.channel('push');
    return [
      t.name,
      `${t.answered}/${t.sent}`,
      [...t.refused].map(([status, n]) => `${status}×${n}`).join(' ') || '0',
      ms(percentile(s, 50)),
      ms(percentile(s, 99)),
      ms(s.at(-1) ?? Number.NaN),
      `${push.delivered}, p99 ${ms(percentile(push.latencies, 99))}`,
    ];
  });
  return table(
    ['run', '202/sent', 'other answers', 'ingest p50', 'ingest p99', 'max', 'push delivered meanwhile'],
    rows,
  );
}
