-- Issue 24 (decision 0052), hand-written: carry this whole file over if the migration is
-- renumbered. A revoked or deleted API key or tenant token announces its credential id (the key's
-- id, the token's jti; the principal's credentialId) on 'lexdesk_credentials', so the realtime
-- sockets opened with it close at once, as a signed-out session's do (0036), not only at expiry.
-- Statement-level, like the change triggers; NOTIFY is sent at COMMIT. An update announces every
-- revoked row it touched (a second revocation is a no-op for the hub).
CREATE OR REPLACE FUNCTION lexdesk_notify_credential_end() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'SELECT pg_notify(''lexdesk_credentials'', %I::text) FROM %I WHERE %s',
    TG_ARGV[0],
    CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END,
    CASE WHEN TG_OP = 'DELETE' THEN 'true' ELSE 'revoked_at IS NOT NULL' END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "api_keys_notify_revoke" AFTER UPDATE ON "api_keys" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_credential_end('id');--> statement-breakpoint
CREATE TRIGGER "api_keys_notify_delete" AFTER DELETE ON "api_keys" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_credential_end('id');--> statement-breakpoint
CREATE TRIGGER "tenant_tokens_notify_revoke" AFTER UPDATE ON "tenant_tokens" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_credential_end('jti');--> statement-breakpoint
CREATE TRIGGER "tenant_tokens_notify_delete" AFTER DELETE ON "tenant_tokens" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lexdesk_notify_credential_end('jti');
