-- Version 3: the knowledge graph and its mutual index with the chunks.
--
-- The per-chunk extraction is the source of truth: mentions, relation
-- sources, facts and concept links each belong to one chunk and cascade away
-- with it. Entities and relations are shared across chunks; their displayed
-- attributes (name, description, aliases, semantic type; statement,
-- confidence) are recomputed by the triggers below from the rows that still
-- support them, so removing a document gives back exactly the graph of the
-- others. An entity left without mentions, a relation left without sources
-- and a concept left without links are deleted by triggers.
--
-- entities_vec and relations_vec are always embedded with the built-in hashed
-- embedder (embed.NewHashed(embed.DefaultDim) = 1024 dims), whatever the
-- project's chunk embedder is, so entity and relation recall never needs a
-- model. vec_stale marks rows whose text changed since they were embedded
-- (the graph store re-embeds them).

CREATE TABLE entities (
  id            INTEGER PRIMARY KEY,
  norm_key      TEXT    NOT NULL,
  type          TEXT    NOT NULL DEFAULT 'other',
  name          TEXT    NOT NULL,
  semantic_type TEXT    NOT NULL DEFAULT '',
  description   TEXT    NOT NULL DEFAULT '',
  aliases       TEXT    NOT NULL DEFAULT '[]', -- JSON array, sorted, without name
  vec_stale     INTEGER NOT NULL DEFAULT 0,
  vec_text      TEXT    NOT NULL DEFAULT '',   -- the text entities_vec holds the embedding of
  UNIQUE (norm_key, type)
);

-- Every normalised surface form and alias an entity is known by (lookup and
-- alignment). Rebuilt from the mentions by the triggers.
CREATE TABLE entity_aliases (
  alias_norm TEXT    NOT NULL,
  entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  PRIMARY KEY (alias_norm, entity_id)
) WITHOUT ROWID;
CREATE INDEX entity_aliases_entity ON entity_aliases(entity_id);

-- The mutual index, entity side: one row per occurrence of an entity in a
-- chunk, with the byte span of the mention inside the document text.
CREATE TABLE mentions (
  id            INTEGER PRIMARY KEY,
  entity_id     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  chunk_id      INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  doc_id        INTEGER NOT NULL,
  surface       TEXT    NOT NULL,             -- the name as this chunk gives it
  norm_key      TEXT    NOT NULL,             -- kb.NormKey(surface)
  semantic_type TEXT    NOT NULL DEFAULT '',
  description   TEXT    NOT NULL DEFAULT '',
  aliases       TEXT    NOT NULL DEFAULT '[]', -- aliases this chunk gives (JSON)
  alias_norms   TEXT    NOT NULL DEFAULT '[]', -- kb.NormKey of each alias (JSON)
  page_start    INTEGER NOT NULL,
  page_end      INTEGER NOT NULL,
  char_start    INTEGER NOT NULL,
  char_end      INTEGER NOT NULL CHECK (char_end >= char_start)
);
CREATE INDEX mentions_entity ON mentions(entity_id);
CREATE INDEX mentions_chunk ON mentions(chunk_id);

CREATE TABLE relations (
  id         INTEGER PRIMARY KEY,
  subject_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  predicate  TEXT    NOT NULL,
  object_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  statement  TEXT    NOT NULL DEFAULT '',
  confidence REAL    NOT NULL DEFAULT 0,
  vec_stale  INTEGER NOT NULL DEFAULT 0,
  vec_text   TEXT    NOT NULL DEFAULT '',
  UNIQUE (subject_id, predicate, object_id)
);
CREATE INDEX relations_object ON relations(object_id);

-- The mutual index, relation side: every chunk a relation was found in, with
-- the span of the sentence that states it.
CREATE TABLE relation_sources (
  id          INTEGER PRIMARY KEY,
  relation_id INTEGER NOT NULL REFERENCES relations(id) ON DELETE CASCADE,
  chunk_id    INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  doc_id      INTEGER NOT NULL,
  statement   TEXT    NOT NULL,
  confidence  REAL    NOT NULL,
  page_start  INTEGER NOT NULL,
  page_end    INTEGER NOT NULL,
  char_start  INTEGER NOT NULL,
  char_end    INTEGER NOT NULL CHECK (char_end >= char_start)
);
CREATE INDEX relation_sources_relation ON relation_sources(relation_id);
CREATE INDEX relation_sources_chunk ON relation_sources(chunk_id);

-- Atomic facts per chunk: a short self-contained statement and the span of
-- the sentence it paraphrases (the mind maps read these).
CREATE TABLE facts (
  id         INTEGER PRIMARY KEY,
  chunk_id   INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  doc_id     INTEGER NOT NULL,
  ordinal    INTEGER NOT NULL,
  text       TEXT    NOT NULL,
  page_start INTEGER NOT NULL,
  page_end   INTEGER NOT NULL,
  char_start INTEGER NOT NULL,
  char_end   INTEGER NOT NULL CHECK (char_end >= char_start),
  UNIQUE (chunk_id, ordinal)
);
CREATE INDEX facts_doc ON facts(doc_id, chunk_id, ordinal);

-- Per-chunk extraction outcome. No row = pending.
CREATE TABLE chunk_extractions (
  chunk_id          INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  status            TEXT    NOT NULL CHECK (status IN ('ok','empty','failed')),
  reason            TEXT    NOT NULL DEFAULT '',
  extractor         TEXT    NOT NULL,  -- 'offline', 'offline-fallback' or the model name
  calls             INTEGER NOT NULL DEFAULT 0,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  wall_ms           INTEGER NOT NULL DEFAULT 0,
  updated_at        TEXT    NOT NULL
);

-- Concepts: classes entities belong to (belongTo) and broader classes (isA).
CREATE TABLE concepts (
  id       INTEGER PRIMARY KEY,
  norm_key TEXT NOT NULL UNIQUE,
  name     TEXT NOT NULL
);
CREATE TABLE entity_concepts (
  entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  concept_id INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
  chunk_id   INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  PRIMARY KEY (entity_id, concept_id, chunk_id)
) WITHOUT ROWID;
CREATE INDEX entity_concepts_chunk ON entity_concepts(chunk_id);
CREATE INDEX entity_concepts_concept ON entity_concepts(concept_id);
CREATE TABLE concept_isa (
  child_id  INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
  parent_id INTEGER NOT NULL REFERENCES concepts(id) ON DELETE CASCADE,
  chunk_id  INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  PRIMARY KEY (child_id, parent_id, chunk_id)
) WITHOUT ROWID;
CREATE INDEX concept_isa_chunk ON concept_isa(chunk_id);
CREATE INDEX concept_isa_parent ON concept_isa(parent_id);

CREATE VIRTUAL TABLE entities_vec USING vec0(entity_id INTEGER PRIMARY KEY, embedding float[1024] distance_metric=cosine);
CREATE VIRTUAL TABLE relations_vec USING vec0(relation_id INTEGER PRIMARY KEY, embedding float[1024] distance_metric=cosine);

CREATE TRIGGER entities_vec_delete AFTER DELETE ON entities BEGIN
  DELETE FROM entities_vec WHERE entity_id = old.id;
END;
CREATE TRIGGER relations_vec_delete AFTER DELETE ON relations BEGIN
  DELETE FROM relations_vec WHERE relation_id = old.id;
END;

-- Entity attributes from the mentions that support it: the most frequent
-- surface form (ties: the smallest), the most frequent non-empty description
-- (ties: the longest, then the smallest), the same for the semantic type;
-- every other surface form and given alias as aliases; every normalised form
-- in entity_aliases. The same statements run after an insert and a delete.
CREATE TRIGGER mentions_insert AFTER INSERT ON mentions BEGIN
  UPDATE entities SET
    name          = (SELECT m.surface FROM mentions m WHERE m.entity_id = new.entity_id GROUP BY m.surface ORDER BY count(*) DESC, m.surface LIMIT 1),
    description   = coalesce((SELECT m.description FROM mentions m WHERE m.entity_id = new.entity_id AND m.description <> '' GROUP BY m.description ORDER BY count(*) DESC, length(m.description) DESC, m.description LIMIT 1), ''),
    semantic_type = coalesce((SELECT m.semantic_type FROM mentions m WHERE m.entity_id = new.entity_id AND m.semantic_type <> '' GROUP BY m.semantic_type ORDER BY count(*) DESC, m.semantic_type LIMIT 1), ''),
    vec_stale     = 1
  WHERE id = new.entity_id;
  UPDATE entities SET aliases = (SELECT coalesce(json_group_array(a ORDER BY a), '[]') FROM (
      SELECT m.surface AS a FROM mentions m WHERE m.entity_id = new.entity_id
      UNION SELECT j.value FROM mentions m, json_each(m.aliases) j WHERE m.entity_id = new.entity_id) WHERE a <> entities.name)
  WHERE id = new.entity_id;
  DELETE FROM entity_aliases WHERE entity_id = new.entity_id;
  INSERT OR IGNORE INTO entity_aliases(alias_norm, entity_id)
    SELECT m.norm_key, m.entity_id FROM mentions m WHERE m.entity_id = new.entity_id
    UNION SELECT j.value, m.entity_id FROM mentions m, json_each(m.alias_norms) j WHERE m.entity_id = new.entity_id AND j.value <> '';
END;
CREATE TRIGGER mentions_delete AFTER DELETE ON mentions BEGIN
  DELETE FROM entities WHERE id = old.entity_id
    AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = old.entity_id);
  UPDATE entities SET
    name          = (SELECT m.surface FROM mentions m WHERE m.entity_id = old.entity_id GROUP BY m.surface ORDER BY count(*) DESC, m.surface LIMIT 1),
    description   = coalesce((SELECT m.description FROM mentions m WHERE m.entity_id = old.entity_id AND m.description <> '' GROUP BY m.description ORDER BY count(*) DESC, length(m.description) DESC, m.description LIMIT 1), ''),
    semantic_type = coalesce((SELECT m.semantic_type FROM mentions m WHERE m.entity_id = old.entity_id AND m.semantic_type <> '' GROUP BY m.semantic_type ORDER BY count(*) DESC, m.semantic_type LIMIT 1), ''),
    vec_stale     = 1
  WHERE id = old.entity_id;
  UPDATE entities SET aliases = (SELECT coalesce(json_group_array(a ORDER BY a), '[]') FROM (
      SELECT m.surface AS a FROM mentions m WHERE m.entity_id = old.entity_id
      UNION SELECT j.value FROM mentions m, json_each(m.aliases) j WHERE m.entity_id = old.entity_id) WHERE a <> entities.name)
  WHERE id = old.entity_id;
  DELETE FROM entity_aliases WHERE entity_id = old.entity_id;
  INSERT OR IGNORE INTO entity_aliases(alias_norm, entity_id)
    SELECT m.norm_key, m.entity_id FROM mentions m WHERE m.entity_id = old.entity_id
    UNION SELECT j.value, m.entity_id FROM mentions m, json_each(m.alias_norms) j WHERE m.entity_id = old.entity_id AND j.value <> '';
END;

-- Relation attributes from its sources: the statement of the source in the
-- lowest chunk (ties: lowest source id), the highest confidence.
CREATE TRIGGER relation_sources_delete AFTER DELETE ON relation_sources BEGIN
  DELETE FROM relations WHERE id = old.relation_id
    AND NOT EXISTS (SELECT 1 FROM relation_sources s WHERE s.relation_id = old.relation_id);
  UPDATE relations SET
    statement  = (SELECT s.statement FROM relation_sources s WHERE s.relation_id = old.relation_id ORDER BY s.chunk_id, s.char_start, s.statement LIMIT 1),
    confidence = (SELECT max(s.confidence) FROM relation_sources s WHERE s.relation_id = old.relation_id),
    vec_stale  = 1
  WHERE id = old.relation_id;
END;
CREATE TRIGGER relation_sources_insert AFTER INSERT ON relation_sources BEGIN
  UPDATE relations SET
    statement  = (SELECT s.statement FROM relation_sources s WHERE s.relation_id = new.relation_id ORDER BY s.chunk_id, s.char_start, s.statement LIMIT 1),
    confidence = (SELECT max(s.confidence) FROM relation_sources s WHERE s.relation_id = new.relation_id),
    vec_stale  = 1
  WHERE id = new.relation_id;
END;

CREATE TRIGGER entity_concepts_delete AFTER DELETE ON entity_concepts BEGIN
  DELETE FROM concepts WHERE id = old.concept_id
    AND NOT EXISTS (SELECT 1 FROM entity_concepts l WHERE l.concept_id = old.concept_id)
    AND NOT EXISTS (SELECT 1 FROM concept_isa l WHERE l.child_id = old.concept_id OR l.parent_id = old.concept_id);
END;
CREATE TRIGGER concept_isa_delete AFTER DELETE ON concept_isa BEGIN
  DELETE FROM concepts WHERE id IN (old.child_id, old.parent_id)
    AND NOT EXISTS (SELECT 1 FROM entity_concepts l WHERE l.concept_id = concepts.id)
    AND NOT EXISTS (SELECT 1 FROM concept_isa l WHERE l.child_id = concepts.id OR l.parent_id = concepts.id);
END;
