-- Version 11: the lexical index gets a fifth column, every, holding one
-- token in every row (store/lexical.go). With it a search can select rows
-- by a question's rarer words and still score its common words on them:
-- "(rare) AND (common OR every : token)". At 100k chunks a plain OR of
-- every question word made FTS5 score half the table (bm25 reads each
-- row's sizes), 60-90 ms a question.
--
-- FTS5 cannot add a column, and a contentless table cannot give its text
-- back, so the table is recreated empty here and refilled by Go from
-- chunks and documents on the first open after this migration (meta
-- chunks_fts = 'pending' until then). The delete trigger names the table
-- and keeps working.
DROP TABLE chunks_fts;
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, heading, body, cjk, every,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO meta(key, value) VALUES('chunks_fts', 'pending')
  ON CONFLICT(key) DO UPDATE SET value = excluded.value;
