CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"url" text NOT NULL,
	"format" text DEFAULT 'json' NOT NULL,
	"secret" text NOT NULL,
	"routing_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhooks_user_idx" ON "webhooks" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"webhook_id" uuid NOT NULL REFERENCES "webhooks"("id") ON DELETE CASCADE,
	"message_id" uuid NOT NULL,
	"alert_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempt" integer NOT NULL,
	"status" integer,
	"ok" boolean NOT NULL,
	"response" text,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_hook_idx" ON "webhook_deliveries" USING btree ("webhook_id","at");
