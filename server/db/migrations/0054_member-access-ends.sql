-- Issue 41 point 5 (decision 0106), hand-written: carry this whole file over if the migration is
-- renumbered. A deleted membership (a member removed or leaving, the user or the organisation
-- deleted, by cascade too) announces its organisation and user on 'lexdesk_members' as
-- {"org_id": …, "user_id": …}, so every process closes the realtime sockets that user holds in
-- that organisation, whatever credential opened them (session cookie, the user's API keys or
-- tenant tokens), as sessions (0036) and credentials (0044) announce their end. Statement-level,
-- like the others; NOTIFY is sent at COMMIT, never for a rolled-back removal.
CREATE OR REPLACE FUNCTION lexdesk_notify_member_end() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lexdesk_members',
    json_build_object('org_id', ended.organization_id, 'user_id', ended.user_id)::text)
  FROM old_rows AS ended;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "member_notify_delete" AFTER DELETE ON "member" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_member_end();
