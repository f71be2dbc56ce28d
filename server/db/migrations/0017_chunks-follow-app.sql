-- A change of a document's app alone (in practice: its app was deleted, ON DELETE SET NULL) moves
-- its passages to the new app in place instead of queueing a re-chunk and re-embed of the whole
-- document: deleting an app used to queue one embedding job per document it held. Only a change
-- of the text queues 'document-chunks' now.
DROP TRIGGER documents_chunks_on_update ON documents;
--> statement-breakpoint
CREATE TRIGGER documents_chunks_on_update AFTER UPDATE OF content ON documents
  FOR EACH ROW
  WHEN (OLD.content IS DISTINCT FROM NEW.content)
  EXECUTE FUNCTION queue_document_chunks();
--> statement-breakpoint
CREATE FUNCTION move_document_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE doc_chunks SET app_id = NEW.app_id WHERE document_id = NEW.id AND app_id IS DISTINCT FROM NEW.app_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_chunks_follow_app AFTER UPDATE OF app_id ON documents
  FOR EACH ROW
  WHEN (OLD.app_id IS DISTINCT FROM NEW.app_id AND OLD.content IS NOT DISTINCT FROM NEW.content)
  EXECUTE FUNCTION move_document_chunks();
