-- The admin's fleet by last seen (issue 31). "last_update" changes on every ingest batch, so it
-- stays unindexed (an indexed column that changes makes every batch's update non-HOT: new entries
-- in all of the devices' indexes). "seen_minute" is that time to the minute ('-infinity': never
-- reported), computed by the database from "last_update": it changes once a minute at most, and an
-- update that leaves it unchanged stays HOT (PostgreSQL compares the indexed values, not the columns
-- set). Its index serves the status filters (online, offline, offline > 1 h, never reported) and
-- the last-seen order, which no index served: both read every device before. date_bin, unlike
-- date_trunc, does not depend on the session's time zone (it is immutable, as a generated column
-- must be).
ALTER TABLE "devices" ADD COLUMN "seen_minute" timestamptz GENERATED ALWAYS AS (coalesce(date_bin('1 minute', "last_update", timestamptz '2000-01-01 00:00:00+00'), '-infinity'::timestamptz)) STORED;--> statement-breakpoint
CREATE INDEX "devices_seen_key_idx" ON "devices" ("seen_minute", "id");
