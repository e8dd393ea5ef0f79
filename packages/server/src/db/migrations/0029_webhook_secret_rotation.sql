-- Webhook secret rotation (issue 30): after "Rotate secret" the old secret keeps signing every
-- message beside the new one until "previous_secret_until" (WEBHOOK_SECRET_OVERLAP_MS, a day),
-- so a receiver that has not yet deployed the new secret still verifies. Both null: one secret.
ALTER TABLE "webhooks" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_until" timestamp with time zone;
