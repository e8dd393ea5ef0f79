-- Trend charts at any volume (issue 24): each server process keeps the finished buckets of the
-- charts it was asked for, and reads only the newest ones again. A finished bucket changes only
-- when a late reading lands in it; an ingest batch that stores one (recorded over a minute before
-- its insert runs) adds one to its device's "history_version", which every chart reads first, with
-- its access check: kept buckets of another version are not used, in any process. Not indexed, so the
-- ingest's update of the device's row stays HOT.
ALTER TABLE "devices" ADD COLUMN "history_version" integer DEFAULT 0 NOT NULL;
