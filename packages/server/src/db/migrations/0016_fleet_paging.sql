-- The admin's fleet at scale (issue 31): keyset pages by name and by creation time, trigram
-- search on names (PostgreSQL's pg_trgm; PGlite loads the same extension), activation-code
-- prefixes, and each device's last known battery so the list can sort and filter by it.
-- last_update and battery get no index on purpose: ingest updates them on every batch, and an
-- index on either would end the devices' HOT updates (see README, "The admin's fleet").
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "battery" real;--> statement-breakpoint
UPDATE "devices" d SET "battery" = (
  SELECT h."battery" FROM "health_records" h
  WHERE h."device_seq" = d."seq" AND h."battery" IS NOT NULL
  ORDER BY h."recorded_at" DESC LIMIT 1
);--> statement-breakpoint
CREATE INDEX "devices_name_key_idx" ON "devices" (lower("device_name"), "id");--> statement-breakpoint
CREATE INDEX "devices_created_key_idx" ON "devices" ("created_at", "id");--> statement-breakpoint
CREATE INDEX "devices_name_trgm_idx" ON "devices" USING gin ("device_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_activation_code_prefix_idx" ON "devices" ("activation_code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_name_key_idx" ON "users" (lower("full_name"), "id");--> statement-breakpoint
CREATE INDEX "users_created_key_idx" ON "users" ("created_at", "id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (("full_name" || ' ' || "username" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_events_actor_name_trgm_idx" ON "audit_events" USING gin ("actor_name" gin_trgm_ops);
