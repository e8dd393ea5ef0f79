import type {
  FleetDevicePage,
  FleetDeviceQuery,
  FleetSummary,
  FleetUserPage,
  FleetUserQuery,
} from '@vitalwatch/shared';
import { FLEET_SUMMARY_TTL_MS } from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { JsonData } from '../../http/contract-routes.ts';
import { presentUser } from '../user/service.ts';
import { encodeCursor } from './keyset.ts';
import * as repo from './repository.ts';

/** The page's rows and the cursor of the next page: `rows` holds up to one row more than a page. */
function paged<R extends { key: string }>(rows: R[], limit: number, idOf: (row: R) => string) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.key, idOf(last)) : null };
}

/** The whole match's count a first page carries on each row (none: nothing matched); none later. */
const totalOf = (rows: { total: number | null }[], after: string | undefined): number | null =>
  after ? null : Number(rows[0]?.total ?? 0);

/**
 * The admin's fleet (`ctx.fleet`, issue 31): devices and users a page at a time, and the
 * overview's counts. The whole match's count comes with the first page only, in the page's own
 * query (see `matchCount`), and the screens keep it while the admin pages on. Roles are checked by the routes.
 */
export class FleetService {
  private readonly db: Db;
  private readonly now: () => number;
  /** The last counts and when they expire; one count under way is shared by every caller. */
  private cached: { summary: Promise<FleetSummary>; expiresAt: number } | null = null;

  constructor(db: Db, now: () => number = () => Date.now()) {
    this.db = db;
    this.now = now;
  }

  /** A page of devices, written by the database (`devicePage`). */
  async devices(q: FleetDeviceQuery): Promise<JsonData<FleetDevicePage>> {
    return new JsonData(await repo.devicePageJson(this.db, q));
  }

  async users(q: FleetUserQuery): Promise<FleetUserPage> {
    const rows = await repo.userPageRows(this.db, q);
    const { page, nextCursor } = paged(rows, q.limit, (r) => r.id);
    return {
      users: page.map(({ subscriptionIds, recoveryCodesLeft, devicesCount, ...user }) => ({
        ...presentUser(user, subscriptionIds, recoveryCodesLeft),
        devicesCount,
      })),
      total: totalOf(rows, q.after),
      nextCursor,
    };
  }

  /** The overview's counts, taken at most once per FLEET_SUMMARY_TTL_MS (a failed count is not kept). */
  summary(): Promise<FleetSummary> {
    const now = this.now();
    if (this.cached && now < this.cached.expiresAt) return this.cached.summary;
    const summary = repo
      .summary(this.db)
      .then((counts) => ({ ...counts, asOf: new Date(now).toISOString() }));
    const entry = { summary, expiresAt: now + FLEET_SUMMARY_TTL_MS };
    this.cached = entry;
    summary.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return summary;
  }
}
