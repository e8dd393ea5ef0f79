-- The admin's fleet: the whole fleet's and all users' counts without reading every row (issue 31).
-- '{n} devices found' on the unfiltered first page counted 30,000 rows per request; these counts
-- are kept by statement triggers in the same transaction as the insert or delete, so they are as
-- exact as count(*) for every snapshot. In a schema of their own: a backup copies the public
-- tables only, and a restore or a move into a fresh database rebuilds the counts through the same
-- triggers as it inserts. A statement that inserts or deletes no row leaves the counts unlocked.
-- The tables are locked first: no insert may commit between the first count and its trigger.
LOCK TABLE "devices", "users" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE SCHEMA IF NOT EXISTS "vw_counts";--> statement-breakpoint
CREATE TABLE "vw_counts"."row_counts" ("table_name" text PRIMARY KEY, "n" bigint NOT NULL);--> statement-breakpoint
INSERT INTO "vw_counts"."row_counts" ("table_name", "n")
  SELECT 'devices', count(*) FROM "devices" UNION ALL SELECT 'users', count(*) FROM "users";--> statement-breakpoint
CREATE FUNCTION "vw_counts"."count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE added bigint := (SELECT count(*) FROM new_rows);
BEGIN
  IF added > 0 THEN
    UPDATE "vw_counts"."row_counts" SET "n" = "n" + added WHERE "table_name" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE removed bigint := (SELECT count(*) FROM old_rows);
BEGIN
  IF removed > 0 THEN
    UPDATE "vw_counts"."row_counts" SET "n" = "n" - removed WHERE "table_name" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."count_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "vw_counts"."row_counts" SET "n" = 0 WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "devices_count_inserted" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_inserted"();--> statement-breakpoint
CREATE TRIGGER "devices_count_deleted" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_deleted"();--> statement-breakpoint
CREATE TRIGGER "devices_count_truncated" AFTER TRUNCATE ON "devices"
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_truncated"();--> statement-breakpoint
CREATE TRIGGER "users_count_inserted" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_inserted"();--> statement-breakpoint
CREATE TRIGGER "users_count_deleted" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_deleted"();--> statement-breakpoint
CREATE TRIGGER "users_count_truncated" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."count_truncated"();
