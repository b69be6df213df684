-- Compact graph and mind-map vectors, searched in memory.
--
-- entities_vec, relations_vec and mind_vec hold vectors of the built-in
-- hashed embedder for short texts (entity names, relation statements,
-- mind-map paths): 30–250 of their 1,024 entries are non-zero. As vec0
-- tables they cost 4 KiB a row plus 1,024-row blocks, and a vec0 KNN
-- scanned them at 17–33× the memory-bandwidth bound. They become plain
-- tables holding the exact vector in the sparse BLOB format of package
-- vecindex (tag 's', uint16 dimension, then uint16 index + float32 value per
-- non-zero entry); searches run over an int8 copy held in memory and
-- re-score their candidates exactly from these rows (store/vectors.go).
-- cairn_vec_sparse (a Go function registered by package store) converts
-- sqlite-vec's float32 BLOBs.
--
-- vec_gen counts changes to each vector set, so a process holding an
-- in-memory copy knows when to reload it: triggers on the plain tables, and
-- on chunks for the vec0 table chunks_vec (written with its chunks; a
-- re-embed switch bumps it itself).

CREATE TABLE vec_gen (
  name TEXT PRIMARY KEY,
  gen  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO vec_gen(name) VALUES ('chunks_vec'), ('entities_vec'), ('relations_vec'), ('mind_vec');

CREATE TEMP TABLE vec_move_entities AS SELECT entity_id AS id, cairn_vec_sparse(embedding) AS v FROM entities_vec;
CREATE TEMP TABLE vec_move_relations AS SELECT relation_id AS id, cairn_vec_sparse(embedding) AS v FROM relations_vec;
CREATE TEMP TABLE vec_move_mind AS SELECT node_id AS id, cairn_vec_sparse(embedding) AS v FROM mind_vec;

DROP TABLE entities_vec;
DROP TABLE relations_vec;
DROP TABLE mind_vec;

CREATE TABLE entities_vec (
  entity_id INTEGER PRIMARY KEY,
  embedding BLOB NOT NULL
);
CREATE TABLE relations_vec (
  relation_id INTEGER PRIMARY KEY,
  embedding   BLOB NOT NULL
);
CREATE TABLE mind_vec (
  node_id   INTEGER PRIMARY KEY,
  embedding BLOB NOT NULL
);

INSERT INTO entities_vec(entity_id, embedding) SELECT id, v FROM vec_move_entities;
INSERT INTO relations_vec(relation_id, embedding) SELECT id, v FROM vec_move_relations;
INSERT INTO mind_vec(node_id, embedding) SELECT id, v FROM vec_move_mind;
DROP TABLE vec_move_entities;
DROP TABLE vec_move_relations;
DROP TABLE vec_move_mind;

CREATE TRIGGER chunks_vec_gen_insert AFTER INSERT ON chunks BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'chunks_vec';
END;
CREATE TRIGGER chunks_vec_gen_delete AFTER DELETE ON chunks BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'chunks_vec';
END;

CREATE TRIGGER entities_vec_gen_insert AFTER INSERT ON entities_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'entities_vec';
END;
CREATE TRIGGER entities_vec_gen_update AFTER UPDATE ON entities_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'entities_vec';
END;
CREATE TRIGGER entities_vec_gen_delete AFTER DELETE ON entities_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'entities_vec';
END;

CREATE TRIGGER relations_vec_gen_insert AFTER INSERT ON relations_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'relations_vec';
END;
CREATE TRIGGER relations_vec_gen_update AFTER UPDATE ON relations_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'relations_vec';
END;
CREATE TRIGGER relations_vec_gen_delete AFTER DELETE ON relations_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'relations_vec';
END;

CREATE TRIGGER mind_vec_gen_insert AFTER INSERT ON mind_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'mind_vec';
END;
CREATE TRIGGER mind_vec_gen_update AFTER UPDATE ON mind_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'mind_vec';
END;
CREATE TRIGGER mind_vec_gen_delete AFTER DELETE ON mind_vec BEGIN
  UPDATE vec_gen SET gen = gen + 1 WHERE name = 'mind_vec';
END;
