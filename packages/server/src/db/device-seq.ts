import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { devices } from './schema.ts';

/**
 * The compact key the time-series tables (readings, rollups) use for the device `deviceId` (a
 * uuid, or the placeholder of a prepared statement), as SQL: every query of a device's readings,
 * whichever module reads them, names it so.
 */
export const deviceSeqOf = (deviceId: string | SQLWrapper): SQL<number> =>
  sql`(select ${devices.seq} from ${devices} where ${devices.id} = ${deviceId})`;
