import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { allContactPairs, contactIdsOf } from '../access/audience.ts';
import type { Tx } from '../db/index.ts';
import { rawRows } from '../db/raw-rows.ts';
import {
  devices,
  pushSubscriptions,
  smsNumbers,
  smsOptOuts,
  users,
  webhookDeliveries,
  webhooks,
} from '../db/schema.ts';

/**
 * "Has a working channel", as SQL, for a user id (a column or a value): any of
 * - a browser (push subscription) not marked not receiving (channel checks: a browser is trusted
 *   until two daily checks in a row go unanswered);
 * - a verified e-mail address (the fallback ladder and every escalation step mail it, opt-in or not);
 * - a webhook of their own whose latest logged try arrived, or that has not been tried yet;
 * - a verified phone number that has not opted out (a number is verified only by a code sent by
 *   SMS, so only where SMS is set up): the ladder's first rung and every high-priority alert
 *   where push cannot reach text it.
 * Alert e-mails are opt-in for a first send, but a verified address is reached by the fallback
 * ladder of every high-priority alert, which is what this rule is for.
 */
export const hasWorkingChannel = (userId: SQLWrapper): SQL<boolean> => sql<boolean>`(
  exists (select 1 from ${pushSubscriptions} hs where hs.user_id = ${userId} and hs.not_receiving_since is null)
  or exists (select 1 from ${users} hu where hu.id = ${userId} and hu.email_verified_at is not null)
  or exists (select 1 from ${smsNumbers} hn where hn.user_id = ${userId} and hn.verified_at is not null
    and hn.phone is not null and not exists (select 1 from ${smsOptOuts} ho where ho.phone = hn.phone))
  or exists (select 1 from ${webhooks} hw where hw.scope = 'user' and hw.user_id = ${userId}
    and coalesce((select hd.ok from ${webhookDeliveries} hd where hd.webhook_id = hw.id
      order by hd.at desc, hd.id desc limit 1), true)))`;

/** Browsers of a user (a column) that are marked not receiving. */
export const browsersNotReceiving = (userId: SQLWrapper): SQL<number> =>
  sql<number>`(select count(*)::int from ${pushSubscriptions} nr
    where nr.user_id = ${userId} and nr.not_receiving_since is not null)`;

/**
 * A device (a column) whose every primary contact has no working channel: nobody it alerts first
 * can be reached. A device with no contact at all is not flagged here (it has no one to reach).
 */
export const unreachableDevice = (deviceId: SQLWrapper): SQL<boolean> => sql<boolean>`(
  cardinality(${contactIdsOf(deviceId)}) > 0
  and not exists (select 1 from unnest(${contactIdsOf(deviceId)}) as pc(uid)
    where ${hasWorkingChannel(sql`pc.uid::uuid`)}))`;

const summaryRow = z.object({
  contacts: z.number().int(),
  device_count: z.number().int(),
  devices: z.array(z.object({ _id: z.string(), deviceName: z.string() })),
});

/**
 * The admin dashboard's channel health: how many primary contacts of high-priority devices have no
 * working channel, and the devices none of whose primary contacts has one (the first `limit`, by
 * name). A high-priority device is an enabled device with a primary contact: every device can raise
 * FALL, SOS and critical-value alerts, which are always high priority and which no alarm setting
 * turns off (alarm settings move limits and delays, never an alert's priority).
 */
export async function channelHealthSummary(tx: Tx, limit: number) {
  const [row] = await rawRows(
    tx,
    sql`with contacts as (
        select c.device_id, c.user_id from ${allContactPairs} c
        join ${devices} d on d.id = c.device_id and d.is_valid
      ), judged as (
        select p.user_id, ${hasWorkingChannel(sql`p.user_id`)} as working
        from (select distinct user_id from contacts) p
      ), unreachable as (
        select c.device_id from contacts c join judged j on j.user_id = c.user_id
        group by c.device_id having not bool_or(j.working)
      )
      select (select count(*)::int from judged where not working) as contacts,
        (select count(*)::int from unreachable) as device_count,
        coalesce((select json_agg(json_build_object('_id', n.id::text, 'deviceName', n.device_name))
          from (select d.id, d.device_name from unreachable u join ${devices} d on d.id = u.device_id
            order by d.device_name, d.id limit ${limit}) n), '[]'::json) as devices`,
    summaryRow,
  );
  return row ?? { contacts: 0, device_count: 0, devices: [] };
}
