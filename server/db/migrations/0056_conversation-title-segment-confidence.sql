-- Issue 43: a conversation can be named. Conversations stay the firm's record (decision 0018):
-- the app may change their title only, never who started them, when, or in which app.
ALTER TABLE "conversations" ADD COLUMN "title" text;
--> statement-breakpoint
GRANT UPDATE ("title") ON "conversations" TO lexdesk_app;
--> statement-breakpoint
-- Issue 43: the speech engine's confidence in each transcript segment, 0..1 (null: none given).
ALTER TABLE "recording_segments" ADD COLUMN "confidence" real;
