-- Decision 0007: the library card's preview (the first 150 characters of the text) kept as a stored
-- generated column, so a page of the library reads no compressed text. PostgreSQL fills it for
-- existing rows when the column is added, and keeps it on every insert and change of content.
ALTER TABLE "documents" ADD COLUMN "preview" text GENERATED ALWAYS AS (substr(content, 1, 150)) STORED NOT NULL;