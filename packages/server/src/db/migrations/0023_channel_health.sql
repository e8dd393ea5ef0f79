-- Channel health (issue 30, point 5): when each browser last proved it receives (a receipt of any
-- push it was sent), the daily check of a browser that did not, and when it was found not receiving.
ALTER TABLE "push_subscriptions" ADD COLUMN "last_receipt_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "last_check_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "unanswered_checks" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "not_receiving_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "channel_checks" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Team and platform webhooks (issue 30, point 4): a webhook belongs to a person, a care team, or
-- the platform; only a person's has an owner, only a team's a team.
ALTER TABLE "webhooks" ADD COLUMN "scope" text DEFAULT 'user' NOT NULL;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "team_id" uuid REFERENCES "teams"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "webhooks" ALTER COLUMN "user_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_scope_owner" CHECK (
  ("scope" = 'user' AND "user_id" IS NOT NULL AND "team_id" IS NULL)
  OR ("scope" = 'team' AND "team_id" IS NOT NULL AND "user_id" IS NULL)
  OR ("scope" = 'platform' AND "user_id" IS NULL AND "team_id" IS NULL));
--> statement-breakpoint
CREATE INDEX "webhooks_team_idx" ON "webhooks" USING btree ("team_id") WHERE "team_id" IS NOT NULL;
