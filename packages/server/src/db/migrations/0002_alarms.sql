CREATE TABLE "alert_escalations" (
	"alert_id" uuid PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"steps" integer DEFAULT 0 NOT NULL,
	"backup_at" timestamp with time zone NOT NULL,
	"backup_notified" boolean DEFAULT false NOT NULL,
	"stops_at" timestamp with time zone NOT NULL,
	"repeat_every_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"alert_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"user_name" text,
	"channel" text,
	"ok" boolean,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "alert_snoozes" (
	"user_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"alert_type" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_snoozes_user_id_device_id_alert_type_pk" PRIMARY KEY("user_id","device_id","alert_type")
);
--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD COLUMN "phase" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD COLUMN "since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD COLUMN "priority" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD COLUMN "seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD COLUMN "calm_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "priority" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_by" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledged_by_name" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "ack_note" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "resolved_by_name" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "resolve_note" text;--> statement-breakpoint
ALTER TABLE "device_users" ADD COLUMN "contact_role" text DEFAULT 'primary' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "alarm_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "alert_escalations" ADD CONSTRAINT "alert_escalations_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_snoozes" ADD CONSTRAINT "alert_snoozes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_snoozes" ADD CONSTRAINT "alert_snoozes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_escalations_next_idx" ON "alert_escalations" USING btree ("next_at");--> statement-breakpoint
CREATE INDEX "alert_events_alert_idx" ON "alert_events" USING btree ("alert_id","at");--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_unresolved_idx" ON "alerts" USING btree ("device_id","alert_type") WHERE "alerts"."status" <> 'resolved';--> statement-breakpoint
-- Alerts stored before priorities: by type, as the alert engine now raises them.
UPDATE "alerts" SET "priority" = CASE
  WHEN "alert_type" IN ('FALL', 'SOS') THEN 'high'
  WHEN "alert_type" IN ('BATTERY', 'DEVICE_OFFLINE') THEN 'low'
  ELSE 'medium' END;--> statement-breakpoint
-- Alerts stored before the lifecycle: the newest of each episode still open stays active; the
-- rest are history and count as resolved (by nobody: nothing records who dealt with them).
UPDATE "alerts" a SET "status" = 'resolved', "resolved_at" = now()
  WHERE NOT EXISTS (
    SELECT 1 FROM "alert_episodes" e WHERE e."device_id" = a."device_id" AND e."alert_type" = a."alert_type"
  ) OR a."id" <> (
    SELECT n."id" FROM "alerts" n WHERE n."device_id" = a."device_id" AND n."alert_type" = a."alert_type"
    ORDER BY n."recorded_at" DESC, n."id" DESC LIMIT 1
  );
