-- Issue 43: a conversation can be named. Conversations stay the firm's record (decision 0018):
-- the app may change their title only, never who started them, when, or in which app.
ALTER TABLE "conversations" ADD COLUMN "title" text;
--> statement-breakpoint
GRANT UPDATE ("title") ON "conversations" TO lexdesk_app;
