import { SHARE_MESSAGES } from '@vitalwatch/shared';
import { badRequest } from '../../errors.ts';

export interface Period {
  from: Date;
  to: Date;
}

/**
 * The part of [from, to] a link serves: within the `spanMs` that end `now`. A window partly
 * outside is cut (a browser's clock a few minutes off still gets its page); one wholly outside
 * (a month ago, tomorrow) is refused.
 */
export function servedWindow(asked: Period, spanMs: number, now = new Date()): Period {
  const from = new Date(Math.max(asked.from.getTime(), now.getTime() - spanMs));
  const to = new Date(Math.min(asked.to.getTime(), now.getTime()));
  if (to <= from) throw badRequest(SHARE_MESSAGES.outsideWindow);
  return { from, to };
}
