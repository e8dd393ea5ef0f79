-- A user's own name for a device they see through a care team only (issue 25): they have no
-- device_users row to keep it in, and making one would assign the device to them. A direct
-- assignment keeps its nickname in device_users, which wins when both exist.
CREATE TABLE "device_nicknames" (
  "device_id" uuid NOT NULL REFERENCES "devices"("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "nickname" text NOT NULL,
  CONSTRAINT "device_nicknames_pkey" PRIMARY KEY ("device_id", "user_id")
);
