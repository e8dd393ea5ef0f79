-- Alert SMS (issue 30): each person's phone number, its verification (the code kept as a hash,
-- with its expiry, wrong tries and the sends of the current window), and the numbers that replied
-- STOP: an opt-out belongs to the number, whoever enters it next.
CREATE TABLE "sms_numbers" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"phone" text,
	"verified_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"sends_window_start" timestamp with time zone,
	"sends_in_window" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sms_numbers_phone_idx" ON "sms_numbers" USING btree ("phone");
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
