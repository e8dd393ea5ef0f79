-- The alert page's first page at any alert history (issue 24). The page lists by device time, newest
-- first; its first page walked the first entries of every visible device's index (32 of each of 200
-- devices, 6,400 index entries, for a page of 20). Each device's newest alert by device time is now
-- kept beside its newest by arrival (migration 0033), by the same triggers: the newest n alerts by
-- device time are on at most n devices, and those are the n devices whose newest alert by device
-- time is newest, so the first page walks only those.
LOCK TABLE "alerts" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "vw_counts"."alert_counts" ADD COLUMN "latest_recorded_at" timestamptz, ADD COLUMN "latest_id" uuid;--> statement-breakpoint
UPDATE "vw_counts"."alert_counts" c SET ("latest_recorded_at", "latest_id") =
  (SELECT a."recorded_at", a."id" FROM "alerts" a WHERE a."device_id" = c."device_id"
   ORDER BY a."recorded_at" DESC, a."id" DESC LIMIT 1);--> statement-breakpoint
-- A count of a device with no alert left (none is kept: 0033's triggers remove it) would stop the next line.
DELETE FROM "vw_counts"."alert_counts" c WHERE NOT EXISTS (SELECT 1 FROM "alerts" a WHERE a."device_id" = c."device_id");--> statement-breakpoint
ALTER TABLE "vw_counts"."alert_counts" ALTER COLUMN "latest_recorded_at" SET NOT NULL, ALTER COLUMN "latest_id" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "vw_counts"."alerts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "vw_counts"."alert_counts" AS c
      ("device_id", "n", "newest_created_at", "newest_recorded_at", "newest_id", "latest_recorded_at", "latest_id")
    SELECT k."device_id", k.n, t."created_at", t."recorded_at", t."id", l."recorded_at", l."id"
    FROM (SELECT "device_id", count(*) AS n FROM new_rows GROUP BY 1) k
    JOIN (SELECT DISTINCT ON ("device_id") "device_id", "created_at", "recorded_at", "id" FROM new_rows
      ORDER BY "device_id", "created_at" DESC, "recorded_at" DESC, "id" DESC) t ON t."device_id" = k."device_id"
    JOIN (SELECT DISTINCT ON ("device_id") "device_id", "recorded_at", "id" FROM new_rows
      ORDER BY "device_id", "recorded_at" DESC, "id" DESC) l ON l."device_id" = k."device_id"
    ORDER BY 1
    ON CONFLICT ("device_id") DO UPDATE SET "n" = c."n" + excluded."n",
      ("newest_created_at", "newest_recorded_at", "newest_id") =
        (SELECT w.* FROM (VALUES (c."newest_created_at", c."newest_recorded_at", c."newest_id"),
          (excluded."newest_created_at", excluded."newest_recorded_at", excluded."newest_id")) w
         ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT 1),
      ("latest_recorded_at", "latest_id") =
        (SELECT w.* FROM (VALUES (c."latest_recorded_at", c."latest_id"),
          (excluded."latest_recorded_at", excluded."latest_id")) w
         ORDER BY 1 DESC, 2 DESC LIMIT 1);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "vw_counts"."alerts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "vw_counts"."alert_counts" c SET "n" = c."n" - d.k
    FROM (SELECT "device_id", count(*) AS k FROM old_rows GROUP BY 1) d WHERE c."device_id" = d."device_id";
  DELETE FROM "vw_counts"."alert_counts" WHERE "n" = 0 AND "device_id" IN (SELECT "device_id" FROM old_rows);
  UPDATE "vw_counts"."alert_counts" c SET ("newest_created_at", "newest_recorded_at", "newest_id") =
    (SELECT a."created_at", a."recorded_at", a."id" FROM "alerts" a WHERE a."device_id" = c."device_id"
     ORDER BY a."created_at" DESC, a."recorded_at" DESC, a."id" DESC LIMIT 1)
    WHERE c."newest_id" IN (SELECT "id" FROM old_rows);
  UPDATE "vw_counts"."alert_counts" c SET ("latest_recorded_at", "latest_id") =
    (SELECT a."recorded_at", a."id" FROM "alerts" a WHERE a."device_id" = c."device_id"
     ORDER BY a."recorded_at" DESC, a."id" DESC LIMIT 1)
    WHERE c."latest_id" IN (SELECT "id" FROM old_rows);
  DELETE FROM "vw_counts"."alert_read_counts" c WHERE c."device_id" IN (SELECT "device_id" FROM old_rows)
    AND (c."n" = 0 OR NOT EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = c."device_id"));
  RETURN NULL;
END $$;
