CREATE TABLE "health_rollups_hour" (
	"device_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"spo2_count" integer DEFAULT 0 NOT NULL,
	"spo2_sum" double precision DEFAULT 0 NOT NULL,
	"spo2_min" real,
	"spo2_max" real,
	"heart_rate_count" integer DEFAULT 0 NOT NULL,
	"heart_rate_sum" double precision DEFAULT 0 NOT NULL,
	"heart_rate_min" real,
	"heart_rate_max" real,
	"temperature_count" integer DEFAULT 0 NOT NULL,
	"temperature_sum" double precision DEFAULT 0 NOT NULL,
	"temperature_min" real,
	"temperature_max" real,
	"battery_count" integer DEFAULT 0 NOT NULL,
	"battery_sum" double precision DEFAULT 0 NOT NULL,
	"battery_min" real,
	"battery_max" real,
	CONSTRAINT "health_rollups_hour_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "health_rollups_minute" (
	"device_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"spo2_count" integer DEFAULT 0 NOT NULL,
	"spo2_sum" double precision DEFAULT 0 NOT NULL,
	"spo2_min" real,
	"spo2_max" real,
	"heart_rate_count" integer DEFAULT 0 NOT NULL,
	"heart_rate_sum" double precision DEFAULT 0 NOT NULL,
	"heart_rate_min" real,
	"heart_rate_max" real,
	"temperature_count" integer DEFAULT 0 NOT NULL,
	"temperature_sum" double precision DEFAULT 0 NOT NULL,
	"temperature_min" real,
	"temperature_max" real,
	"battery_count" integer DEFAULT 0 NOT NULL,
	"battery_sum" double precision DEFAULT 0 NOT NULL,
	"battery_min" real,
	"battery_max" real,
	CONSTRAINT "health_rollups_minute_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "health_rollups_hour" ADD CONSTRAINT "health_rollups_hour_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_rollups_minute" ADD CONSTRAINT "health_rollups_minute_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Readings stored before the rollups existed: every one of them, once.
INSERT INTO "health_rollups_minute" AS r (device_id, bucket, readings, spo2_count, spo2_sum, spo2_min, spo2_max,
  heart_rate_count, heart_rate_sum, heart_rate_min, heart_rate_max, temperature_count, temperature_sum,
  temperature_min, temperature_max, battery_count, battery_sum, battery_min, battery_max)
SELECT device_id, date_bin(interval '1 minute', recorded_at, timestamptz '2000-01-01T00:00:00Z'), count(*),
  count(spo2), coalesce(sum(spo2::float8), 0), min(spo2), max(spo2),
  count(heart_rate), coalesce(sum(heart_rate::float8), 0), min(heart_rate), max(heart_rate),
  count(temperature), coalesce(sum(temperature::float8), 0), min(temperature), max(temperature),
  count(battery), coalesce(sum(battery::float8), 0), min(battery), max(battery)
FROM "health_records" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "health_rollups_hour" AS r (device_id, bucket, readings, spo2_count, spo2_sum, spo2_min, spo2_max,
  heart_rate_count, heart_rate_sum, heart_rate_min, heart_rate_max, temperature_count, temperature_sum,
  temperature_min, temperature_max, battery_count, battery_sum, battery_min, battery_max)
SELECT device_id, date_bin(interval '1 hour', recorded_at, timestamptz '2000-01-01T00:00:00Z'), count(*),
  count(spo2), coalesce(sum(spo2::float8), 0), min(spo2), max(spo2),
  count(heart_rate), coalesce(sum(heart_rate::float8), 0), min(heart_rate), max(heart_rate),
  count(temperature), coalesce(sum(temperature::float8), 0), min(temperature), max(temperature),
  count(battery), coalesce(sum(battery::float8), 0), min(battery), max(battery)
FROM "health_records" GROUP BY 1, 2;
