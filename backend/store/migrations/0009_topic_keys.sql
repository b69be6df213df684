-- Exact-name look-up for retrieval's topic list (the bridge hop: a chunk
-- whose document title or section heading names a question entity).
--
-- The list used to find its candidates with an FTS5 phrase query on the
-- title and heading columns of chunks_fts, whose doclists cover every
-- column: at 100k chunks one look-up read tens of milliseconds of body
-- postings to keep a handful of exact title matches. topic_keys holds
-- kb.TopicKey of each document title (one row, on the document's first
-- chunk) and of each heading in a chunk's heading path (one row per chunk
-- under it). Rows are written with the chunks (store.SaveContent) and go
-- with them (cascade). Existing chunks are filled in by Go on the first
-- open after this migration (meta topic_keys = 'pending' until then).
CREATE TABLE topic_keys (
  key      TEXT    NOT NULL,
  chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  PRIMARY KEY (key, chunk_id)
) WITHOUT ROWID;
CREATE INDEX topic_keys_chunk ON topic_keys(chunk_id);
INSERT INTO meta(key, value) VALUES('topic_keys', 'pending')
  ON CONFLICT(key) DO UPDATE SET value = excluded.value;

-- Per-entity chunk look-ups and distinct chunk counts (entity and ppr lists)
-- read only this index instead of one table row per mention.
CREATE INDEX mentions_entity_chunk ON mentions(entity_id, chunk_id);
DROP INDEX mentions_entity;
