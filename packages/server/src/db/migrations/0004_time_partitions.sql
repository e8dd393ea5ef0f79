-- Raw readings and their rollups move to tables partitioned by time, keyed by a compact device
-- number instead of the 16-byte uuid, with every existing row copied (ids kept). Partitions are
-- made by ensure_time_partitions (here for the existing rows; then by the server, ahead of time
-- and on demand) and dropped whole by drop_time_partitions_before (RETENTION_DAYS).
ALTER TABLE "devices" ADD COLUMN "seq" integer NOT NULL GENERATED ALWAYS AS IDENTITY;--> statement-breakpoint
CREATE UNIQUE INDEX "devices_seq_idx" ON "devices" USING btree ("seq");--> statement-breakpoint

-- Start of the partition holding `t`: weeks start on Monday 00:00 UTC, months and years in UTC.
CREATE FUNCTION time_partition_start(period text, t timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE period
    WHEN 'week' THEN date_bin(interval '7 days', t, timestamptz '2000-01-03T00:00:00Z')
    WHEN 'month' THEN date_trunc('month', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    WHEN 'year' THEN date_trunc('year', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  END
$$;--> statement-breakpoint

-- Create the partitions of `parent` covering [lo, hi] that do not exist yet; returns how many.
-- Serialised per table by an advisory lock, so concurrent servers never race to create one.
CREATE FUNCTION ensure_time_partitions(parent text, period text, lo timestamptz, hi timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  s timestamptz := time_partition_start(period, lo);
  e timestamptz;
  name text;
  made integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:' || parent));
  WHILE s <= hi LOOP
    e := CASE period
      WHEN 'week' THEN s + interval '7 days'
      WHEN 'month' THEN ((s AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
      ELSE ((s AT TIME ZONE 'UTC') + interval '1 year') AT TIME ZONE 'UTC'
    END;
    name := parent || '_p' || to_char(s AT TIME ZONE 'UTC', 'YYYYMMDD');
    IF to_regclass(name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, s, e);
      made := made + 1;
    END IF;
    s := e;
  END LOOP;
  RETURN made;
END
$$;--> statement-breakpoint

-- Drop the partitions of `parent` that end at or before `cutoff` (whole tables: no row-by-row
-- delete, no vacuum debt); returns their names.
CREATE FUNCTION drop_time_partitions_before(parent text, cutoff timestamptz) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  part record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:' || parent));
  FOR part IN
    SELECT c.relname,
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz AS ends
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent::regclass
    ORDER BY 2
  LOOP
    EXIT WHEN part.ends > cutoff;
    EXECUTE format('DROP TABLE %I', part.relname);
    RETURN NEXT part.relname;
  END LOOP;
END
$$;--> statement-breakpoint

ALTER TABLE "health_records" RENAME TO "health_records_old";--> statement-breakpoint
ALTER INDEX "health_records_device_recorded_idx" RENAME TO "health_records_old_device_recorded_idx";--> statement-breakpoint
ALTER TABLE "health_rollups_minute" RENAME TO "health_rollups_minute_old";--> statement-breakpoint
ALTER TABLE "health_rollups_minute_old" RENAME CONSTRAINT "health_rollups_minute_device_id_bucket_pk" TO "health_rollups_minute_old_pk";--> statement-breakpoint
ALTER TABLE "health_rollups_hour" RENAME TO "health_rollups_hour_old";--> statement-breakpoint
ALTER TABLE "health_rollups_hour_old" RENAME CONSTRAINT "health_rollups_hour_device_id_bucket_pk" TO "health_rollups_hour_old_pk";--> statement-breakpoint

CREATE SEQUENCE "health_reading_ids" CACHE 100;--> statement-breakpoint
SELECT setval('health_reading_ids', coalesce((SELECT max(id) FROM "health_records_old"), 0) + 1, false);--> statement-breakpoint

-- Columns in an order that wastes no alignment padding: 8-byte, then 4-byte, then the text.
CREATE TABLE "health_records" (
	"id" bigint DEFAULT nextval('health_reading_ids') NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"device_seq" integer NOT NULL,
	"spo2" real,
	"heart_rate" real,
	"temperature" real,
	"battery" real,
	"message_id" text,
	CONSTRAINT "health_records_device_seq_devices_seq_fk" FOREIGN KEY ("device_seq") REFERENCES "public"."devices"("seq") ON DELETE cascade
) PARTITION BY RANGE ("recorded_at");--> statement-breakpoint
-- Readings of a device arrive in time order, so its pages are filled to the brim.
CREATE INDEX "health_records_device_recorded_idx" ON "health_records" USING btree ("device_seq","recorded_at") WITH (fillfactor = 100);--> statement-breakpoint

CREATE TABLE "health_rollups_minute" (
	"bucket" timestamp with time zone NOT NULL,
	"device_seq" integer NOT NULL,
	"readings" integer NOT NULL,
	"spo2_sum" double precision DEFAULT 0 NOT NULL,
	"heart_rate_sum" double precision DEFAULT 0 NOT NULL,
	"temperature_sum" double precision DEFAULT 0 NOT NULL,
	"battery_sum" double precision DEFAULT 0 NOT NULL,
	"spo2_count" integer DEFAULT 0 NOT NULL,
	"heart_rate_count" integer DEFAULT 0 NOT NULL,
	"temperature_count" integer DEFAULT 0 NOT NULL,
	"battery_count" integer DEFAULT 0 NOT NULL,
	"spo2_min" real,
	"spo2_max" real,
	"heart_rate_min" real,
	"heart_rate_max" real,
	"temperature_min" real,
	"temperature_max" real,
	"battery_min" real,
	"battery_max" real,
	CONSTRAINT "health_rollups_minute_device_seq_bucket_pk" PRIMARY KEY ("device_seq", "bucket"),
	CONSTRAINT "health_rollups_minute_device_seq_devices_seq_fk" FOREIGN KEY ("device_seq") REFERENCES "public"."devices"("seq") ON DELETE cascade
) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE TABLE "health_rollups_hour" (LIKE "health_rollups_minute" INCLUDING DEFAULTS,
	CONSTRAINT "health_rollups_hour_device_seq_bucket_pk" PRIMARY KEY ("device_seq", "bucket"),
	CONSTRAINT "health_rollups_hour_device_seq_devices_seq_fk" FOREIGN KEY ("device_seq") REFERENCES "public"."devices"("seq") ON DELETE cascade
) PARTITION BY RANGE ("bucket");--> statement-breakpoint

SELECT ensure_time_partitions('health_records', 'week', min(recorded_at), max(recorded_at)) FROM "health_records_old" HAVING count(*) > 0;--> statement-breakpoint
SELECT ensure_time_partitions('health_rollups_minute', 'month', min(bucket), max(bucket)) FROM "health_rollups_minute_old" HAVING count(*) > 0;--> statement-breakpoint
SELECT ensure_time_partitions('health_rollups_hour', 'year', min(bucket), max(bucket)) FROM "health_rollups_hour_old" HAVING count(*) > 0;--> statement-breakpoint

INSERT INTO "health_records" (id, recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
SELECT h.id, h.recorded_at, d.seq, h.spo2, h.heart_rate, h.temperature, h.battery, h.message_id
FROM "health_records_old" h JOIN "devices" d ON d.id = h.device_id
ORDER BY d.seq, h.recorded_at;--> statement-breakpoint
INSERT INTO "health_rollups_minute" (bucket, device_seq, readings, spo2_sum, heart_rate_sum, temperature_sum, battery_sum,
  spo2_count, heart_rate_count, temperature_count, battery_count, spo2_min, spo2_max, heart_rate_min, heart_rate_max,
  temperature_min, temperature_max, battery_min, battery_max)
SELECT r.bucket, d.seq, r.readings, r.spo2_sum, r.heart_rate_sum, r.temperature_sum, r.battery_sum,
  r.spo2_count, r.heart_rate_count, r.temperature_count, r.battery_count, r.spo2_min, r.spo2_max, r.heart_rate_min,
  r.heart_rate_max, r.temperature_min, r.temperature_max, r.battery_min, r.battery_max
FROM "health_rollups_minute_old" r JOIN "devices" d ON d.id = r.device_id;--> statement-breakpoint
INSERT INTO "health_rollups_hour" (bucket, device_seq, readings, spo2_sum, heart_rate_sum, temperature_sum, battery_sum,
  spo2_count, heart_rate_count, temperature_count, battery_count, spo2_min, spo2_max, heart_rate_min, heart_rate_max,
  temperature_min, temperature_max, battery_min, battery_max)
SELECT r.bucket, d.seq, r.readings, r.spo2_sum, r.heart_rate_sum, r.temperature_sum, r.battery_sum,
  r.spo2_count, r.heart_rate_count, r.temperature_count, r.battery_count, r.spo2_min, r.spo2_max, r.heart_rate_min,
  r.heart_rate_max, r.temperature_min, r.temperature_max, r.battery_min, r.battery_max
FROM "health_rollups_hour_old" r JOIN "devices" d ON d.id = r.device_id;--> statement-breakpoint

DROP TABLE "health_records_old";--> statement-breakpoint
DROP TABLE "health_rollups_minute_old";--> statement-breakpoint
DROP TABLE "health_rollups_hour_old";
