-- Version 2: document frequency of the built-in embedder's words, counted
-- over chunks, so question words can be weighted by IDF without re-embedding
-- the chunks already stored.
CREATE TABLE term_df (
  term TEXT PRIMARY KEY,
  df   INTEGER NOT NULL
) WITHOUT ROWID;
