-- Cairn project schema, version 1: documents, pages, chunks and the lexical
-- index. The vector table (chunks_vec) is created by the store once the
-- project's embedder (and so its dimension) is known.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE documents (
  id          INTEGER PRIMARY KEY,
  title       TEXT    NOT NULL,
  file_name   TEXT    NOT NULL,
  stored_path TEXT    NOT NULL,
  kind        TEXT    NOT NULL,
  hash        TEXT    NOT NULL UNIQUE,
  bytes       INTEGER NOT NULL,
  status      TEXT    NOT NULL CHECK (status IN ('pending','ok','failed','needs_ocr','needs_password')),
  error       TEXT    NOT NULL DEFAULT '',
  error_code  TEXT    NOT NULL DEFAULT '',
  warnings    TEXT    NOT NULL DEFAULT '[]',
  imported_at TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);

CREATE TABLE pages (
  doc_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  number     INTEGER NOT NULL CHECK (number >= 1),
  char_start INTEGER NOT NULL,
  text       TEXT    NOT NULL,
  no_text    INTEGER NOT NULL DEFAULT 0,
  ocr        INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (doc_id, number)
) WITHOUT ROWID;

CREATE TABLE chunks (
  id           INTEGER PRIMARY KEY,
  doc_id       INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ordinal      INTEGER NOT NULL,
  page_start   INTEGER NOT NULL,
  page_end     INTEGER NOT NULL CHECK (page_end >= page_start),
  char_start   INTEGER NOT NULL,
  char_end     INTEGER NOT NULL CHECK (char_end >= char_start),
  heading_path TEXT    NOT NULL DEFAULT '[]',
  text         TEXT    NOT NULL,
  tokens       INTEGER NOT NULL,
  UNIQUE (doc_id, ordinal)
);

-- Lexical index. Contentless (the text lives in chunks); rowid = chunks.id.
-- title and heading are weighted above body at query time; cjk holds
-- overlapping character bigrams of CJK runs, because unicode61 treats a CJK
-- run as one token and trigram cannot match two-character words.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, heading, body, cjk,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
END;
