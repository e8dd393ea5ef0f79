import { BOARD_SPARK_BUCKETS, type BoardSparkline } from '@vitalwatch/shared';
import type { Tx } from '../../db/index.ts';
import { SPARK_SLOT_MS, sparklineSlots } from './repository.ts';

/** A slot is taken as final once it ended this long before the snapshot (readings still on their way). */
const SETTLE_MS = 60_000;
/**
 * A device's known slots are read again in full after this: a reading that arrives late (a device
 * sending what it stored while offline) changes a slot already known, and shows within this time.
 */
const REREAD_MS = 5 * 60_000;

interface KnownSlots {
  /** Slots starting before this are known (the value, or none, of each). */
  through: number;
  /** Slot start (ms) → mean heart rate, of the known slots that have one. */
  rates: Map<number, number>;
  /** When they were last read in full. */
  readAt: number;
}

/**
 * The board's sparklines, each device's finished 3-minute slots kept between builds (shared by all
 * the boards of this process), so a build reads only the slots still filling: profiling the
 * snapshot of 1,000 devices, reading the whole hour was most of its database time (55 to 90 ms of
 * about 100 on a loaded machine), the newest readings, teams and alerts a few ms each.
 *
 * The slots are on a fixed 3-minute grid (the last one ends at the first grid line at or after the
 * snapshot's time), so a finished slot keeps its value from one build to the next.
 */
export class SparklineSlots {
  private readonly known = new Map<number, KnownSlots>();

  /** Each device's sparkline at `at`, by device seq (none for a device without any value). */
  async of(tx: Tx, seqs: number[], at: Date): Promise<Map<number, BoardSparkline>> {
    const now = at.getTime();
    const end = Math.ceil(now / SPARK_SLOT_MS) * SPARK_SLOT_MS;
    const first = end - BOARD_SPARK_BUCKETS * SPARK_SLOT_MS;
    const settled = Math.max(first, Math.floor((now - SETTLE_MS) / SPARK_SLOT_MS) * SPARK_SLOT_MS);
    this.forgetOld(now);
    const asked = seqs.map((seq) => {
      const k = this.known.get(seq);
      const fresh = k && now - k.readAt < REREAD_MS && k.through >= first && k.through <= end;
      return { seq, since: new Date(fresh ? k.through : first), known: fresh ? k : undefined };
    });
    const rows = await sparklineSlots(tx, asked, new Date(end), at);
    const read = new Map(rows.map((r) => [r.device_seq, r.rates]));
    const lines = new Map<number, BoardSparkline>();
    for (const { seq, since, known } of asked) {
      const rates = new Map<number, number>();
      for (const [start, rate] of known?.rates ?? []) if (start >= first) rates.set(start, rate);
      for (const [slot, rate] of Object.entries(read.get(seq) ?? {}))
        rates.set(end - (BOARD_SPARK_BUCKETS - Number(slot)) * SPARK_SLOT_MS, rate);
      if (rates.size > 0) {
        lines.set(
          seq,
          Array.from({ length: BOARD_SPARK_BUCKETS }, (_, i) => rates.get(first + i * SPARK_SLOT_MS) ?? null),
        );
      }
      const finished = new Map([...rates].filter(([start]) => start < settled));
      this.known.set(seq, {
        through: Math.max(since.getTime(), settled),
        rates: finished,
        readAt: known?.readAt ?? now,
      });
    }
    return lines;
  }

  /** Drops the devices no board asked for within `REREAD_MS`. */
  private forgetOld(now: number): void {
    for (const [seq, k] of this.known) if (now - k.readAt >= REREAD_MS) this.known.delete(seq);
  }
}
