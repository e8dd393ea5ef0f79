-- Each device's count of users (issue 24), which every device list shows: counted from device_users
-- for each device of the list on every call, it was half of PostgreSQL's work on a care team's list
-- of 200 devices (1,180 → 560 µs of its CPU a call with the count kept) and 10 µs of a family's 130.
-- Kept by triggers in the same transaction as the insert or delete, as the alert counts of
-- migration 0033 (increments, exact for every snapshot and for concurrent writers; a count that
-- falls to nought is removed, as is a deleted device's, by the cascade of its users). In vw_counts,
-- so a backup leaves it out and a restore rebuilds it through these triggers as it inserts.
LOCK TABLE "device_users" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "vw_counts"."device_user_counts" (
  "device_id" uuid PRIMARY KEY,
  "n" integer NOT NULL
);--> statement-breakpoint
INSERT INTO "vw_counts"."device_user_counts" ("device_id", "n")
  SELECT "device_id", count(*) FROM "device_users" GROUP BY 1;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."device_users_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "vw_counts"."device_user_counts" AS c ("device_id", "n")
    SELECT "device_id", count(*) FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT ("device_id") DO UPDATE SET "n" = c."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
-- The counts are locked in device order first, as the insert's take them: two users' deletes that
-- share devices would otherwise lock their counts in the plan's order and could deadlock.
CREATE FUNCTION "vw_counts"."device_users_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "vw_counts"."device_user_counts"
    WHERE "device_id" IN (SELECT "device_id" FROM old_rows) ORDER BY "device_id" FOR UPDATE;
  UPDATE "vw_counts"."device_user_counts" c SET "n" = c."n" - d.k
    FROM (SELECT "device_id", count(*) AS k FROM old_rows GROUP BY 1) d WHERE c."device_id" = d."device_id";
  DELETE FROM "vw_counts"."device_user_counts" WHERE "n" = 0 AND "device_id" IN (SELECT "device_id" FROM old_rows);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."device_users_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a device user''s device and user are not changed once stored';
END $$;--> statement-breakpoint
CREATE FUNCTION "vw_counts"."device_users_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "vw_counts"."device_user_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "device_users_count_inserted" AFTER INSERT ON "device_users" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."device_users_inserted"();--> statement-breakpoint
CREATE TRIGGER "device_users_count_deleted" AFTER DELETE ON "device_users" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."device_users_deleted"();--> statement-breakpoint
CREATE TRIGGER "device_users_count_fixed" BEFORE UPDATE OF "device_id", "user_id" ON "device_users"
  FOR EACH ROW WHEN ((OLD."device_id", OLD."user_id") IS DISTINCT FROM (NEW."device_id", NEW."user_id"))
  EXECUTE FUNCTION "vw_counts"."device_users_fixed"();--> statement-breakpoint
CREATE TRIGGER "device_users_count_truncated" AFTER TRUNCATE ON "device_users"
  FOR EACH STATEMENT EXECUTE FUNCTION "vw_counts"."device_users_truncated"();
