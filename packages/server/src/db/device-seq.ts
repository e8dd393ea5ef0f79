import { type SQL, sql } from 'drizzle-orm';
import { devices } from './schema.ts';

/**
 * The compact key the time-series tables (readings, rollups) use for the device `deviceId` (a
 * uuid), as SQL: every query of a device's readings, whichever module reads them, names it so.
 */
export const deviceSeqOf = (deviceId: string): SQL<number> =>
  sql`(select ${devices.seq} from ${devices} where ${devices.id} = ${deviceId})`;
