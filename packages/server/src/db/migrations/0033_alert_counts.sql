-- The header's bell and the alert page at any alert history (issue 24). Alerts are kept for ever, and
-- every signed-in page asked for the caller's latest three and their unread count: both read every
-- alert of every device the caller may see (55 ms and 32 ms of PostgreSQL per call at 100,000
-- alerts, growing with the history). Now neither reads more than one index entry per visible device.
--
-- 1. Each device's alerts in the orders the lists ask for, so the newest few of a device are the
--    first entries of its index (no sort of all its alerts): arrival order for the bell, device time
--    for the page, with status and priority at hand for its filters.
-- 2. The devices a user may see, read from the index alone.
-- 3. Each device's alert count and newest alert (in the bell's order), and each user's count of
--    read alerts of each device, kept by triggers in the same transaction as the insert or delete
--    (exact for every snapshot, as vw_counts.row_counts of migration 0027). A user's unread count is
--    the sum over the devices they may see of the first less the last; the bell reads only the
--    devices whose newest alerts are the newest (the newest n alerts are on at most n devices, and
--    those are the n devices with the newest alerts). A count that falls to nought is removed (a
--    deleted device's or user's). No foreign keys: a device's delete would cascade to its counts
--    while its alerts' triggers still change them, which PostgreSQL refuses. A backup copies the
--    public tables only; a restore rebuilds the counts through these triggers as it inserts.
LOCK TABLE "alerts", "alert_reads" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
DROP INDEX IF EXISTS "alerts_device_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "alerts_device_recorded_idx";--> statement-breakpoint
CREATE INDEX "alerts_device_created_idx" ON "alerts" ("device_id", "created_at" DESC, "recorded_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX "alerts_device_recorded_idx" ON "alerts" ("device_id", "recorded_at" DESC, "id" DESC) INCLUDE ("status", "priority");--> statement-breakpoint
DROP INDEX IF EXISTS "device_users_user_idx";--> statement-breakpoint
CREATE INDEX "device_users_user_idx" ON "device_users" ("user_id", "device_id") INCLUDE ("pending_since");--> statement-breakpoint
CREATE SCHEMA IF NOT EXISTS "vw_counts";--> statement-breakpoint
CREATE TABLE "vw_counts"."alert_counts" (
  "device_id" uuid NOT NULL,
  "n" bigint NOT NULL,
  "newest_created_at" timestamptz NOT NULL,
  "newest_recorded_at" timestamptz NOT NULL,
  "newest_id" uuid NOT NULL,
  PRIMARY KEY ("device_id") INCLUDE ("newest_created_at", "newest_recorded_at", "newest_id")
);--> statement-breakpoint
CREATE TABLE "vw_counts"."alert_read_counts" (
  "user_id" uuid NOT NULL,
  "device_id" uuid NOT NULL,
  "n" bigint NOT NULL,
  PRIMARY KEY ("user_id", "device_id")
);--> statement-breakpoint
CREATE INDEX "alert_read_counts_device_idx" ON "vw_counts"."alert_read_counts" ("device_id");--> statement-breakpoint
INSERT INTO "vw_counts"."alert_counts" ("device_id", "n", "newest_created_at", "newest_recorded_at", "newest_id")
  SELECT k."device_id", k.n, t."created_at", t."recorded_at", t."id"
  FROM (SELECT "device_id", count(*) AS n FROM "alerts" GROUP BY 1) k
  JOIN (SELECT DISTINCT ON ("device_id") "device_id", "created_at", "recorded_at", "id" FROM "alerts"
    ORDER BY "device_id", "created_at" DESC, "recorded_at" DESC, "id" DESC) t ON t."device_id" = k."device_id";--> statement-breakpoint
INSERT INTO "vw_counts"."alert_read_counts" ("user_id", "device_id", "n")
  SELECT r."user_id", a."device_id", count(*) FROM "alert_reads" r JOIN "alerts" a ON a."id" = r."alert_id" GROUP BY 1, 2;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."alerts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "vw_counts"."alert_counts" AS c ("device_id", "n", "newest_created_at", "newest_recorded_at", "newest_id")
    SELECT k."device_id", k.n, t."created_at", t."recorded_at", t."id"
    FROM (SELECT "device_id", count(*) AS n FROM new_rows GROUP BY 1) k
    JOIN (SELECT DISTINCT ON ("device_id") "device_id", "created_at", "recorded_at", "id" FROM new_rows
      ORDER BY "device_id", "created_at" DESC, "recorded_at" DESC, "id" DESC) t ON t."device_id" = k."device_id"
    ORDER BY 1
    ON CONFLICT ("device_id") DO UPDATE SET "n" = c."n" + excluded."n",
      ("newest_created_at", "newest_recorded_at", "newest_id") =
        (SELECT w.* FROM (VALUES (c."newest_created_at", c."newest_recorded_at", c."newest_id"),
          (excluded."newest_created_at", excluded."newest_recorded_at", excluded."newest_id")) w
         ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."alerts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "vw_counts"."alert_counts" c SET "n" = c."n" - d.k
    FROM (SELECT "device_id", count(*) AS k FROM old_rows GROUP BY 1) d WHERE c."device_id" = d."device_id";
  DELETE FROM "vw_counts"."alert_counts" WHERE "n" = 0 AND "device_id" IN (SELECT "device_id" FROM old_rows);
  UPDATE "vw_counts"."alert_counts" c SET ("newest_created_at", "newest_recorded_at", "newest_id") =
    (SELECT a."created_at", a."recorded_at", a."id" FROM "alerts" a WHERE a."device_id" = c."device_id"
     ORDER BY a."created_at" DESC, a."recorded_at" DESC, a."id" DESC LIMIT 1)
    WHERE c."newest_id" IN (SELECT "id" FROM old_rows);
  DELETE FROM "vw_counts"."alert_read_counts" c WHERE c."device_id" IN (SELECT "device_id" FROM old_rows)
    AND (c."n" = 0 OR NOT EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = c."device_id"));
  RETURN NULL;
END $$;--> statement-breakpoint
-- Before each alert goes (and its reads with it, by the cascade, when the alert row is already
-- gone and their device can no longer be found), its readers' counts of its device lose one. Not
-- when its device went first (the alerts go by the cascade from it): alerts_deleted then removes
-- the device's counts at once, where one update per alert of each reader's count row made a device
-- with a long history slower to delete with every alert (each update steps over the last's version).
CREATE FUNCTION "vw_counts"."alert_unread"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = OLD."device_id") THEN
    UPDATE "vw_counts"."alert_read_counts" c SET "n" = c."n" - 1
      FROM "alert_reads" r WHERE r."alert_id" = OLD."id" AND c."user_id" = r."user_id" AND c."device_id" = OLD."device_id";
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."reads_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "vw_counts"."alert_read_counts" AS c ("user_id", "device_id", "n")
    SELECT r."user_id", a."device_id", count(*) FROM new_rows r JOIN "alerts" a ON a."id" = r."alert_id" GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("user_id", "device_id") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
-- Reads deleted while their alert stays (a cascade from a deleted alert finds none: alert_unread
-- counted those).
CREATE FUNCTION "vw_counts"."reads_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "vw_counts"."alert_read_counts" c SET "n" = c."n" - d.k
    FROM (SELECT r."user_id", a."device_id", count(*) AS k FROM old_rows r JOIN "alerts" a ON a."id" = r."alert_id" GROUP BY 1, 2) d
    WHERE c."user_id" = d."user_id" AND c."device_id" = d."device_id";
  DELETE FROM "vw_counts"."alert_read_counts" WHERE "n" = 0 AND "user_id" IN (SELECT "user_id" FROM old_rows);
  RETURN NULL;
END $$;--> statement-breakpoint
-- The counts and the newest hold while an alert's id, device and times, and a read's alert and
-- user, stay as they were stored.
CREATE FUNCTION "vw_counts"."alert_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an alert''s id, device and times, and a read''s alert and user, are not changed once stored';
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."alerts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "vw_counts"."alert_counts";
  DELETE FROM "vw_counts"."alert_read_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."reads_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "vw_counts"."alert_read_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "alerts_count_inserted" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."alerts_inserted"();--> statement-breakpoint
CREATE TRIGGER "alerts_count_deleted" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."alerts_deleted"();--> statement-breakpoint
CREATE TRIGGER "alerts_count_unread" BEFORE DELETE ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "vw_counts"."alert_unread"();--> statement-breakpoint
CREATE TRIGGER "alerts_count_fixed" BEFORE UPDATE OF "id", "device_id", "created_at", "recorded_at" ON "alerts"
  FOR EACH ROW WHEN ((OLD."id", OLD."device_id", OLD."created_at", OLD."recorded_at")
    IS DISTINCT FROM (NEW."id", NEW."device_id", NEW."created_at", NEW."recorded_at"))
  EXECUTE FUNCTION "vw_counts"."alert_fixed"();--> statement-breakpoint
CREATE TRIGGER "alert_reads_count_fixed" BEFORE UPDATE OF "alert_id", "user_id" ON "alert_reads"
  FOR EACH ROW WHEN ((OLD."alert_id", OLD."user_id") IS DISTINCT FROM (NEW."alert_id", NEW."user_id"))
  EXECUTE FUNCTION "vw_counts"."alert_fixed"();--> statement-breakpoint
CREATE TRIGGER "alerts_count_truncated" AFTER TRUNCATE ON "alerts"
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."alerts_truncated"();--> statement-breakpoint
CREATE TRIGGER "alert_reads_count_inserted" AFTER INSERT ON "alert_reads" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."reads_inserted"();--> statement-breakpoint
CREATE TRIGGER "alert_reads_count_deleted" AFTER DELETE ON "alert_reads" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."reads_deleted"();--> statement-breakpoint
CREATE TRIGGER "alert_reads_count_truncated" AFTER TRUNCATE ON "alert_reads"
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."reads_truncated"();
