-- The audit log: partitioned by month on "at" (whole partitions leave after AUDIT_RETENTION_DAYS,
-- see TimePartitions) and append-only: a trigger refuses every UPDATE and DELETE, so no role the
-- application uses can rewrite what happened. Dropping an expired partition fires no row trigger.
CREATE SEQUENCE "audit_event_ids";--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigint DEFAULT nextval('audit_event_ids') NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"target_type" text,
	"target_id" text,
	"ip" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","at");--> statement-breakpoint
CREATE FUNCTION audit_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();--> statement-breakpoint
SELECT ensure_time_partitions('audit_events', 'month', now() - interval '1 day', now() + interval '31 days');
