#!/bin/sh
# First start of the database container: the two roles of README "Deploying for a firm".
# lexdesk_owner owns the tables and runs the migrations (DATABASE_MIGRATION_URL); lexdesk_login
# is the application's role: it logs in and nothing more (no superuser, no BYPASSRLS, owns
# nothing); the migrations grant it what it uses. pgvector is created here, by the superuser,
# because it is not a trusted extension.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" <<SQL
CREATE ROLE lexdesk_owner LOGIN CREATEROLE NOSUPERUSER PASSWORD '${LEXDESK_OWNER_PASSWORD}';
CREATE ROLE lexdesk_login LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '${LEXDESK_APP_PASSWORD}';
CREATE DATABASE lexdesk OWNER lexdesk_owner;
\connect lexdesk
CREATE EXTENSION IF NOT EXISTS vector;
SQL
