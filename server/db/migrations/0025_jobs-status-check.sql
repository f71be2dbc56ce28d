-- Issue 10: a job's status is one of the five its lifecycle knows and its progress lies in 0..1,
-- enforced by the database for every writer (the runner's SQL, triggers), not only by the API.
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check" CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_progress_check" CHECK (progress >= 0 AND progress <= 1);