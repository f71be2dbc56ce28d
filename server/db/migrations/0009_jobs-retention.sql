-- The job runner deletes the records of jobs finished more than JOB_RETENTION_DAYS ago
-- (server/jobs/job-store.ts purgeFinishedJobs); its policy job_runner already covers DELETE.
GRANT DELETE ON jobs TO lexdesk_worker;
