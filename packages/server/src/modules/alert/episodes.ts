import type { AlertType } from '@vitalwatch/shared';
import { VITAL_RULES, type VitalRule, type Vitals } from './rules.ts';

export interface TimedVitals extends Vitals {
  recordedAt: Date;
}

export interface Raise<R extends TimedVitals> {
  rule: VitalRule;
  reading: R;
  value: number;
  /**
   * True for the raise that leaves the episode open at the end of the walk: it is stored only
   * if the atomic `INSERT … ON CONFLICT DO NOTHING` of the episode row succeeds. Raises whose
   * episode opened and closed again within the same readings do not touch the episode table.
   */
  opensEpisode: boolean;
}

export interface EpisodeWalk<R extends TimedVitals> {
  raises: Raise<R>[];
  /** Episodes closed before that must be open afterwards, and the reverse. */
  open: AlertType[];
  close: AlertType[];
}

/**
 * Judge one device's readings, oldest first, starting from the episodes open before them.
 * Each rule is its own state machine: a value outside the normal range with no open episode
 * raises and opens one; a value back in range closes it; a missing value changes nothing. So
 * the same readings raise the same alerts whether they arrive one by one or in one batch.
 */
export function walkEpisodes<R extends TimedVitals>(
  openBefore: ReadonlySet<string>,
  readingsOldestFirst: readonly R[],
): EpisodeWalk<R> {
  const walk: EpisodeWalk<R> = { raises: [], open: [], close: [] };
  for (const rule of VITAL_RULES) {
    const wasOpen = openBefore.has(rule.type);
    let isOpen = wasOpen;
    let lastRaise: Raise<R> | undefined;
    for (const reading of readingsOldestFirst) {
      const value = reading[rule.vital];
      if (value === null) continue;
      const abnormal = rule.isAbnormal(value);
      if (abnormal && !isOpen) {
        lastRaise = { rule, reading, value, opensEpisode: false };
        walk.raises.push(lastRaise);
      }
      isOpen = abnormal;
    }
    if (isOpen && !wasOpen) {
      walk.open.push(rule.type);
      lastRaise!.opensEpisode = true;
    } else if (!isOpen && wasOpen) {
      walk.close.push(rule.type);
    }
  }
  return walk;
}
