import {
  HEALTH_FETCH_DEFAULT_LIMIT,
  HEALTH_MESSAGES,
  type HealthFetchBody,
  type HealthHistory,
  type HealthHistoryBody,
  type HealthRecord,
} from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { canSeeDevice } from '../device/policy.ts';
import { deviceHistory } from './history.ts';
import { presentHealthRecord } from './presenter.ts';
import { listReadings } from './repository.ts';

export class HealthService {
  constructor(private readonly db: Db) {}

  /**
   * Readings of a device assigned to the caller, newest first. Any other device (someone
   * else's, unknown, or any device for an admin, who is never assigned one) is 404.
   */
  async fetch(userId: string, deviceId: string, body: HealthFetchBody): Promise<HealthRecord[]> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw notFound(HEALTH_MESSAGES.notFound);
    const rows = await listReadings(this.db, deviceId, {
      from: body?.from ? new Date(body.from) : undefined,
      to: body?.to ? new Date(body.to) : undefined,
      limit: body?.limit ?? HEALTH_FETCH_DEFAULT_LIMIT,
    });
    return rows.map(presentHealthRecord);
  }

  /** The device's history over a range within a point budget (see `deviceHistory`); 404 as `fetch`. */
  async history(userId: string, deviceId: string, body: HealthHistoryBody): Promise<HealthHistory> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw notFound(HEALTH_MESSAGES.notFound);
    return deviceHistory(this.db, deviceId, new Date(body.from), new Date(body.to), body.points);
  }
}
