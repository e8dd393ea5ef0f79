import type { Tx } from '../../db/index.ts';
import { isUuid } from '../../lib/ids.ts';
import { isAssigned } from './repository.ts';

/** A user sees a device (its health data, its alerts) only while assigned to it. */
export const canSeeDevice = async (tx: Tx, userId: string, deviceId: string): Promise<boolean> =>
  isUuid(deviceId) && isAssigned(tx, userId, deviceId);
