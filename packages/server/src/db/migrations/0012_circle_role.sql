ALTER TABLE "device_users" ADD COLUMN "circle_role" text DEFAULT 'carer' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_users" ADD COLUMN "nickname" text;--> statement-breakpoint
-- Every device's earliest-added user (ties by user id) becomes its owner.
UPDATE "device_users" du SET "circle_role" = 'owner'
FROM (
  SELECT DISTINCT ON ("device_id") "device_id", "user_id"
  FROM "device_users"
  ORDER BY "device_id", "created_at", "user_id"
) AS first
WHERE du."device_id" = first."device_id" AND du."user_id" = first."user_id";
