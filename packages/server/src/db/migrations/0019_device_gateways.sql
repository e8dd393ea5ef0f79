-- Browsers as gateways for Bluetooth wearables (issue 28): a device-scoped key per browser,
-- revocable, and the make and model the wearable's Device Information service gives.
ALTER TABLE "devices" ADD COLUMN "make" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "model" text;--> statement-breakpoint
CREATE TABLE "device_gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL REFERENCES "devices"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"label" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "device_gateways_key_idx" ON "device_gateways" ("key_hash");--> statement-breakpoint
CREATE INDEX "device_gateways_device_idx" ON "device_gateways" ("device_id");
