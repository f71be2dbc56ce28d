CREATE TABLE "legal_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_by" text,
	"released_at" timestamp with time zone,
	CONSTRAINT "legal_holds_target_kind_check" CHECK (target_kind IN ('app', 'document', 'recording', 'member')),
	CONSTRAINT "legal_holds_reason_check" CHECK (char_length(reason) BETWEEN 1 AND 500),
	CONSTRAINT "legal_holds_release_check" CHECK (released_at IS NOT NULL OR released_by IS NULL)
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_released_by_user_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_holds_org_target_idx" ON "legal_holds" USING btree ("org_id","target_kind","target_id");--> statement-breakpoint
CREATE INDEX "legal_holds_org_created_idx" ON "legal_holds" USING btree ("org_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Issue 45 (decision 0147), hand-written below drizzle-kit's table: carry it over if the
-- migration is renumbered. legal_holds is a tenant table: RLS like every other (the organisation
-- read once per statement, decision 0030); it has no app, so no app clause, and its routes refuse
-- app-bound credentials. Holds are placed and released (a column grant: only released_by and
-- released_at change), never deleted by a request; they go with their organisation, which
-- legal_hold_guard below lets go only once none stands.
GRANT SELECT, INSERT ON legal_holds TO lexdesk_app;
--> statement-breakpoint
GRANT UPDATE (released_by, released_at) ON legal_holds TO lexdesk_app;
--> statement-breakpoint
ALTER TABLE legal_holds ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE legal_holds FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON legal_holds
  USING (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')))
  WITH CHECK (org_id = (SELECT NULLIF(current_setting('app.org_id', true), '')));
--> statement-breakpoint
-- "Hold beats delete" where the data is: a BEFORE DELETE row trigger on every table a hold
-- reaches refuses the deletion of a held row with SQLSTATE LH409 (server/holds/legal-hold.ts maps
-- it to the 409 problem `legal_hold`), whatever path deletes it: a route, a job, a cascade of a
-- foreign key (deleting a bucket deletes its objects, a recording its transcript, an app or an
-- organisation everything in it), better-auth removing a member or an organisation. TG_ARGV[0]
-- names what the row is:
--   organization  any hold standing in it;
--   member        a hold on that member (target_id = the user id);
--   app           a hold on that app;
--   otherwise     a hold on the row itself (target_kind = TG_ARGV[0]), on its app (app_id), on
--                 its creator (created_by: a member's data), and for a document, on the
--                 recording whose transcript it is.
-- SECURITY DEFINER (the migrating role, which owns legal_holds) so that every caller sees the
-- holds: the application roles, the job runner's, better-auth's connection outside any tenant
-- transaction. FORCE ROW LEVEL SECURITY applies to the owner too, so the function sets app.org_id
-- to the row's own organisation for its one read and puts the caller's value back: it never reads
-- another organisation's holds than the row's, and says only whether one stands (never its reason).
CREATE FUNCTION legal_hold_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  kind text := TG_ARGV[0];
  org text;
  target text;
  app text;
  creator text;
  previous text := current_setting('app.org_id', true);
  held boolean;
BEGIN
  -- Only the branch of the row's table reads its columns (PL/pgSQL compiles a trigger function
  -- per table and resolves OLD's fields when a statement runs), and never the row whole: a
  -- document's text may be megabytes.
  IF kind = 'organization' THEN
    org := OLD.id;
  ELSIF kind = 'member' THEN
    org := OLD.organization_id;
    target := OLD.user_id;
  ELSIF kind = 'app' THEN
    org := OLD.org_id;
    target := OLD.id::text;
  ELSIF kind = 'storage_object' THEN
    org := OLD.org_id;
    target := OLD.id::text;
    creator := OLD.created_by;
  ELSE
    org := OLD.org_id;
    target := OLD.id::text;
    app := OLD.app_id::text;
    creator := OLD.created_by;
  END IF;
  PERFORM set_config('app.org_id', org, true);
  SELECT EXISTS (
    SELECT FROM legal_holds h
    WHERE h.org_id = org AND h.released_at IS NULL AND (
      kind = 'organization'
      OR (kind IN ('member', 'app') AND h.target_kind = kind AND h.target_id = target)
      OR (kind NOT IN ('organization', 'member', 'app') AND (
        (h.target_kind = kind AND h.target_id = target)
        OR (h.target_kind = 'app' AND h.target_id = app)
        OR (h.target_kind = 'member' AND h.target_id = creator)
        OR (kind = 'document' AND h.target_kind = 'recording' AND h.target_id IN (
          SELECT rec.id::text FROM recordings rec
          WHERE rec.org_id = org AND rec.document_id = target::uuid))))))
  INTO held;
  PERFORM set_config('app.org_id', coalesce(previous, ''), true);
  IF held THEN
    RAISE EXCEPTION 'legal_hold: this % is under a legal hold', kind USING ERRCODE = 'LH409';
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON organization
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('organization');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON member
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('member');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON apps
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('app');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('document');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON recordings
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('recording');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('conversation');
--> statement-breakpoint
CREATE TRIGGER legal_hold_guard BEFORE DELETE ON storage_objects
  FOR EACH ROW EXECUTE FUNCTION legal_hold_guard('storage_object');
