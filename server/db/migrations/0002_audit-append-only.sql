-- The audit trail is append-only for the application role: no UPDATE or DELETE of audit rows.
REVOKE UPDATE, DELETE ON audit_logs FROM lexdesk_app;
