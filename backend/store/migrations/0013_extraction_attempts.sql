-- Extraction attempts per chunk and model (issue 19: retries that learn).
--
-- A chunk whose model extraction fails is retried by later index runs,
-- each time with a change (alone instead of in a pack, then a smaller reply
-- budget and a note on what went wrong). After a few failed attempts with
-- one model it is left failed, with the last reason, until the user asks
-- again (`cairn index --retry-failed`, which clears these rows) or the
-- model changes (rows are per model). A success deletes the chunk's row.
CREATE TABLE extraction_attempts (
  chunk_id   INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  model      TEXT    NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0,
  kind       TEXT    NOT NULL DEFAULT '', -- llm.FailureKind of the last failure
  reason     TEXT    NOT NULL DEFAULT '',
  updated_at TEXT    NOT NULL,
  PRIMARY KEY (chunk_id, model)
) WITHOUT ROWID;
