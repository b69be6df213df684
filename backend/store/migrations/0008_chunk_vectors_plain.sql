-- Chunk vectors in a plain table.
--
-- Searches run over the in-memory int8 index (store/vectors.go) and
-- re-score their candidates from the exact float vectors. Reading those from
-- vec0 cost a blob open per vector (≈ 0.4 ms each on the 10k-chunk corpus,
-- 200 per passage search), so chunks_vec becomes a plain table of
-- sqlite-vec-format BLOBs (little-endian float32) read by primary key.
-- vec0 used to refuse vectors of the wrong dimension; chunks_vec_dim does
-- that now against the recorded embedder (meta embed_dim).
--
-- A project without an embedder yet has no chunks_vec: an empty one is
-- made first so the copy below is valid. A re-embed in progress is dropped
-- (its vec0 table with it); the old vectors stay in use and the re-embed
-- starts over when asked again.

CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vec USING vec0(chunk_id INTEGER PRIMARY KEY, embedding float[1]);
CREATE TEMP TABLE vec_move_chunks AS SELECT chunk_id AS id, embedding AS v FROM chunks_vec;

DROP TRIGGER IF EXISTS chunks_vec_delete;
DROP TABLE chunks_vec;
DROP TRIGGER IF EXISTS chunks_vec_next_delete;
DROP TABLE IF EXISTS chunks_vec_next;
DELETE FROM meta WHERE key IN ('reembed_model', 'reembed_dim');

CREATE TABLE chunks_vec (
  chunk_id  INTEGER PRIMARY KEY,
  embedding BLOB NOT NULL
);
INSERT INTO chunks_vec(chunk_id, embedding) SELECT id, v FROM vec_move_chunks;
DROP TABLE vec_move_chunks;

CREATE TRIGGER chunks_vec_delete AFTER DELETE ON chunks BEGIN
  DELETE FROM chunks_vec WHERE chunk_id = old.id;
END;
CREATE TRIGGER chunks_vec_dim BEFORE INSERT ON chunks_vec
WHEN length(new.embedding) <> 4 * coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'embed_dim'), 0)
BEGIN
  SELECT RAISE(ABORT, 'chunk vector dimension differs from the project embedder');
END;
UPDATE vec_gen SET gen = gen + 1 WHERE name = 'chunks_vec';
