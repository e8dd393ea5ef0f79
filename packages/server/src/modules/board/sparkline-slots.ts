import { BOARD_SPARK_BUCKETS, type BoardSparkline } from '@vitalwatch/shared';
import type { Tx } from '../../db/index.ts';
import { SPARK_SLOT_MS, sparklineSlots } from './repository.ts';
import { Slice } from './slice.ts';

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
  /** Start (ms) of the slot `rates[0]` holds. */
  from: number;
  /** Mean heart rate of the known slots from `from` on, one a slot (null: none): a plain array, cheap to walk. */
  rates: (number | null)[];
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
  async of(tx: Tx, seqs: number[], at: Date, slice = new Slice()): Promise<Map<number, BoardSparkline>> {
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
    slice.restart();
    const read = new Map(rows.map((r) => [r.device_seq, r.rates]));
    // Slots by index (0 oldest, each starting at first + i * SPARK_SLOT_MS): one array per device,
    // not a Map of every slot and a copy of it (walking those was the most of this loop's time).
    const settledSlots = (settled - first) / SPARK_SLOT_MS;
    const lines = new Map<number, BoardSparkline>();
    for (const { seq, since, known } of asked) {
      const line: (number | null)[] = new Array(BOARD_SPARK_BUCKETS).fill(null);
      let any = false;
      if (known) {
        const shift = (known.from - first) / SPARK_SLOT_MS;
        for (let i = Math.max(0, -shift); i < known.rates.length; i += 1) {
          const rate = known.rates[i]!;
          if (rate !== null) {
            line[i + shift] = rate;
            any = true;
          }
        }
      }
      const fresh = read.get(seq);
      if (fresh) {
        for (const slot in fresh) {
          line[Number(slot)] = fresh[slot]!;
          any = true;
        }
      }
      if (any) lines.set(seq, line);
      this.known.set(seq, {
        through: Math.max(since.getTime(), settled),
        from: first,
        rates: any ? line.slice(0, settledSlots) : [],
        readAt: known?.readAt ?? now,
      });
      if (slice.isLong()) await slice.next();
    }
    return lines;
  }

  /** Drops the devices no board asked for within `REREAD_MS`. */
  private forgetOld(now: number): void {
    for (const [seq, k] of this.known) if (now - k.readAt >= REREAD_MS) this.known.delete(seq);
  }
}
