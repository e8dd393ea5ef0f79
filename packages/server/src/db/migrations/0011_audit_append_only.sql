-- The audit log's append-only rule (0007) closed against what went round it:
-- * TRUNCATE fires no row trigger: a statement trigger refuses it on the parent and on every
--   partition (truncating a partition fires only that partition's triggers), and each new
--   partition gets its own from ensure_audit_partitions.
-- * session_replication_role = replica silences ordinary triggers: these fire ALWAYS (a new
--   partition's copy of the row trigger keeps that).
-- * Detaching or dropping a partition and disabling a trigger need ownership of the table: under
--   the role setup in the README the server owns no audit table (src/db/audit-owner.sql).
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ALWAYS TRIGGER "audit_events_append_only";--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE ALWAYS TRIGGER "audit_events_no_truncate";--> statement-breakpoint

-- The audit log's monthly partitions covering [lo, hi] that do not exist yet, each with its
-- TRUNCATE trigger; returns how many were made. SECURITY DEFINER: once the audit log belongs to
-- a role of its own, the server (which may not add partitions to a table it does not own) still
-- makes next month's. It calls no function the server owns, so the server cannot make it run
-- code of its choosing as that role.
CREATE FUNCTION ensure_audit_partitions(lo timestamptz, hi timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  s timestamptz := date_trunc('month', lo AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  e timestamptz;
  name text;
  made integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:audit_events'));
  WHILE s <= hi LOOP
    e := ((s AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    name := 'audit_events_p' || to_char(s AT TIME ZONE 'UTC', 'YYYYMMDD');
    IF to_regclass(format('public.%I', name)) IS NULL THEN
      EXECUTE format('CREATE TABLE public.%I PARTITION OF public.audit_events FOR VALUES FROM (%L) TO (%L)', name, s, e);
      EXECUTE format('CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON public.%I '
        'FOR EACH STATEMENT EXECUTE FUNCTION public.audit_events_append_only()', name);
      EXECUTE format('ALTER TABLE public.%I ENABLE ALWAYS TRIGGER audit_events_no_truncate', name);
      made := made + 1;
    END IF;
    s := e;
  END LOOP;
  RETURN made;
END
$$;--> statement-breakpoint

-- Every caller of the generic function (the server's TimePartitions) makes audit partitions the above way.
CREATE OR REPLACE FUNCTION ensure_time_partitions(parent text, period text, lo timestamptz, hi timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  s timestamptz := time_partition_start(period, lo);
  e timestamptz;
  name text;
  made integer := 0;
BEGIN
  IF parent = 'audit_events' THEN
    RETURN ensure_audit_partitions(lo, hi);
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:' || parent));
  WHILE s <= hi LOOP
    e := CASE period
      WHEN 'week' THEN s + interval '7 days'
      WHEN 'month' THEN ((s AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
      ELSE ((s AT TIME ZONE 'UTC') + interval '1 year') AT TIME ZONE 'UTC'
    END;
    name := parent || '_p' || to_char(s AT TIME ZONE 'UTC', 'YYYYMMDD');
    IF to_regclass(name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, s, e);
      made := made + 1;
    END IF;
    s := e;
  END LOOP;
  RETURN made;
END
$$;--> statement-breakpoint

DO $$
DECLARE
  part regclass;
BEGIN
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'audit_events'::regclass LOOP
    EXECUTE format('CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON %s '
      'FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()', part);
    EXECUTE format('ALTER TABLE %s ENABLE ALWAYS TRIGGER audit_events_no_truncate', part);
  END LOOP;
END
$$;
--> statement-breakpoint

-- The audit log's partitions that end at or before `cutoff`, dropped whole; returns their names.
-- The audit log's owner runs it for retention (see the README), so it calls no function the
-- server owns.
CREATE FUNCTION drop_audit_partitions_before(cutoff timestamptz) RETURNS SETOF text
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  part record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:audit_events'));
  FOR part IN
    SELECT c.relname,
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz AS ends
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'public.audit_events'::regclass
    ORDER BY 2
  LOOP
    EXIT WHEN part.ends > cutoff;
    EXECUTE format('DROP TABLE public.%I', part.relname);
    RETURN NEXT part.relname;
  END LOOP;
END
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION drop_time_partitions_before(parent text, cutoff timestamptz) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  part record;
BEGIN
  IF parent = 'audit_events' THEN
    RETURN QUERY SELECT drop_audit_partitions_before(cutoff);
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('time-partitions:' || parent));
  FOR part IN
    SELECT c.relname,
      (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''([^'']+)''\)'))[1]::timestamptz AS ends
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent::regclass
    ORDER BY 2
  LOOP
    EXIT WHEN part.ends > cutoff;
    EXECUTE format('DROP TABLE %I', part.relname);
    RETURN NEXT part.relname;
  END LOOP;
END
$$;
