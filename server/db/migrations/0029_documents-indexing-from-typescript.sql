-- Indexing for search is queued by the TypeScript that writes a document, in the same transaction
-- (server/documents/document-writes.ts, decision 0041), no longer by triggers the code never
-- shows. No code changes a document's text today; one that does queues 'document-chunks' there
-- too. The trigger that moves passages with their document's app (migration 0017) stays: it
-- keeps derived rows in step, it starts no work.
DROP TRIGGER documents_chunks_on_insert ON documents;
--> statement-breakpoint
DROP TRIGGER documents_chunks_on_update ON documents;
--> statement-breakpoint
DROP FUNCTION queue_document_chunks();
