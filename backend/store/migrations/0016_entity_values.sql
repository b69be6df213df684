-- Version 16: values are facts of entities, not graph nodes.
--
-- A date, an amount, a percentage or a quantity that a sentence states of
-- an entity (the offline extractor attaches it to the sentence's subject or
-- the nearest name) is a row here, with its own span: searchable (the
-- passage holds it), shown on the entity's card, never an entity. Rows
-- belong to one chunk and one entity and cascade away with either; a chunk
-- extracted again clears its rows first (clearChunkGraph).
CREATE TABLE entity_facts (
  id         INTEGER PRIMARY KEY,
  entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  chunk_id   INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  doc_id     INTEGER NOT NULL,
  kind       TEXT    NOT NULL, -- date, money, percent, quantity
  value      TEXT    NOT NULL, -- as written
  page_start INTEGER NOT NULL,
  page_end   INTEGER NOT NULL,
  char_start INTEGER NOT NULL,
  char_end   INTEGER NOT NULL CHECK (char_end >= char_start)
);
CREATE INDEX entity_facts_entity ON entity_facts(entity_id);
CREATE INDEX entity_facts_chunk ON entity_facts(chunk_id);
