-- Gives the audit log to a role of its own, so that the server's role (which made it by running the
-- migrations) may only read it and append to it: not truncate it (no privilege), nor detach, drop,
-- re-own or alter a partition or disable a trigger (only the owner may), nor set
-- session_replication_role (only a superuser may). Run it as a superuser in the server's database
-- after the server's first start and after each upgrade (it can run any number of times). The
-- README ("Audit log") has the roles to create first; edit the two names below if yours differ.
DO $$
DECLARE
  server_role CONSTANT text := 'vitalwatch_server';
  audit_role CONSTANT text := 'vitalwatch_audit';
  part regclass;
BEGIN
  EXECUTE format('ALTER TABLE public.audit_events OWNER TO %I', audit_role);
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'public.audit_events'::regclass LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO %I', part, audit_role);
  END LOOP;
  EXECUTE format('ALTER SEQUENCE public.audit_event_ids OWNER TO %I', audit_role);
  EXECUTE format('ALTER FUNCTION public.audit_events_append_only() OWNER TO %I', audit_role);
  EXECUTE format('ALTER FUNCTION public.ensure_audit_partitions(timestamptz, timestamptz) OWNER TO %I', audit_role);
  EXECUTE format('ALTER FUNCTION public.drop_audit_partitions_before(timestamptz) OWNER TO %I', audit_role);
  EXECUTE format('REVOKE ALL ON public.audit_events FROM %I', server_role);
  EXECUTE format('GRANT SELECT, INSERT ON public.audit_events TO %I', server_role);
  EXECUTE format('GRANT USAGE ON SEQUENCE public.audit_event_ids TO %I', server_role);
  EXECUTE 'REVOKE EXECUTE ON FUNCTION public.ensure_audit_partitions(timestamptz, timestamptz) FROM PUBLIC';
  EXECUTE 'REVOKE EXECUTE ON FUNCTION public.drop_audit_partitions_before(timestamptz) FROM PUBLIC';
  EXECUTE format('GRANT EXECUTE ON FUNCTION public.ensure_audit_partitions(timestamptz, timestamptz) TO %I', server_role);
  -- ensure_audit_partitions runs as the audit role: next month's table is made in its name.
  EXECUTE format('GRANT USAGE, CREATE ON SCHEMA public TO %I', audit_role);
END
$$;

-- The owner itself is held to the same rules by an event trigger (only a superuser can make one,
-- and a superuser can also disable it): the audit tables keep both append-only triggers, enabled
-- ALWAYS; no partition is detached (a detached one keeps its TRUNCATE trigger, which is how it is
-- recognised); the parent table is not dropped. Whole partitions past retention may be dropped.
CREATE OR REPLACE FUNCTION public.audit_events_guard() RETURNS event_trigger
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  parent regclass := to_regclass('public.audit_events');
BEGIN
  IF TG_EVENT = 'sql_drop' THEN
    IF EXISTS (SELECT FROM pg_event_trigger_dropped_objects()
               WHERE object_type = 'table' AND object_identity = 'public.audit_events') THEN
      RAISE EXCEPTION 'the audit log cannot be dropped' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN;
  END IF;
  IF parent IS NULL THEN
    RETURN;
  END IF;
  IF EXISTS (
    SELECT FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE t.tgname = 'audit_events_no_truncate' AND c.relkind = 'r' AND NOT c.relispartition
  ) THEN
    RAISE EXCEPTION 'a partition of the audit log cannot be detached' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF EXISTS (
    SELECT FROM pg_class c
    WHERE (c.oid = parent OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = parent))
      AND (SELECT count(*) FROM pg_trigger t
           WHERE t.tgrelid = c.oid AND t.tgenabled = 'A'
             AND t.tgname IN ('audit_events_append_only', 'audit_events_no_truncate')) < 2
  ) THEN
    RAISE EXCEPTION 'the audit log''s append-only triggers stay enabled' USING ERRCODE = 'insufficient_privilege';
  END IF;
END
$$;
DROP EVENT TRIGGER IF EXISTS audit_events_guard;
CREATE EVENT TRIGGER audit_events_guard ON ddl_command_end
  WHEN TAG IN ('ALTER TABLE', 'ALTER TRIGGER', 'DROP TRIGGER') EXECUTE FUNCTION public.audit_events_guard();
ALTER EVENT TRIGGER audit_events_guard ENABLE ALWAYS;
DROP EVENT TRIGGER IF EXISTS audit_events_guard_drop;
CREATE EVENT TRIGGER audit_events_guard_drop ON sql_drop
  WHEN TAG IN ('DROP TABLE') EXECUTE FUNCTION public.audit_events_guard();
ALTER EVENT TRIGGER audit_events_guard_drop ENABLE ALWAYS;
