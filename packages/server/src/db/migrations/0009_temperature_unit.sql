ALTER TABLE "users" ADD COLUMN "temperature_unit" text DEFAULT 'F' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_temperature_unit_check" CHECK ("temperature_unit" IN ('F', 'C'));
