-- Version 18: one name, one type.
--
-- An entity used to be keyed by its normalised name and its type, so a name
-- typed person in one passage and location in another stayed two entities
-- ("Title I", "DMCA" in the Sample). Now an extraction's name joins the
-- entity of that name whatever type it gives (store.resolveEntity), and
-- every mention carries the type its chunk gave it with the strength of the
-- evidence (type_weight: the offline extractor's vote score, shared among
-- the entity's mentions in that chunk; a model's type counts 1). The
-- entity's type is the type with the most weight over all its mentions,
-- "other" only when nothing says more. entity_type_votes keeps the sums, so
-- a new mention or a removed one (document removal cascades) changes them
-- in constant time. Entities of one name that an older build typed two ways
-- keep their own rows (and types) until their chunks are extracted again;
-- the guard below keeps UNIQUE(norm_key, type) from ever failing.
ALTER TABLE mentions ADD COLUMN type TEXT NOT NULL DEFAULT 'other';
ALTER TABLE mentions ADD COLUMN type_weight REAL NOT NULL DEFAULT 0;
UPDATE mentions SET type = coalesce((SELECT e.type FROM entities e WHERE e.id = mentions.entity_id), 'other');
UPDATE mentions SET type_weight = 1 WHERE type <> 'other';

CREATE TABLE entity_type_votes (
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  type      TEXT    NOT NULL,
  weight    REAL    NOT NULL,
  n         INTEGER NOT NULL, -- mentions voting
  PRIMARY KEY (entity_id, type)
) WITHOUT ROWID;
INSERT INTO entity_type_votes(entity_id, type, weight, n)
  SELECT entity_id, type, sum(type_weight), count(*) FROM mentions GROUP BY entity_id, type;

CREATE TRIGGER mentions_type_insert AFTER INSERT ON mentions BEGIN
  INSERT INTO entity_type_votes(entity_id, type, weight, n) VALUES (new.entity_id, new.type, new.type_weight, 1)
    ON CONFLICT(entity_id, type) DO UPDATE SET weight = weight + excluded.weight, n = n + 1;
  UPDATE entities SET type = (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = new.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1)
  WHERE id = new.entity_id
    AND type <> (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = new.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM entities e2 WHERE e2.norm_key = entities.norm_key AND e2.id <> entities.id
      AND e2.type = (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = new.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1));
END;

CREATE TRIGGER mentions_type_delete AFTER DELETE ON mentions BEGIN
  UPDATE entity_type_votes SET weight = weight - old.type_weight, n = n - 1 WHERE entity_id = old.entity_id AND type = old.type;
  DELETE FROM entity_type_votes WHERE entity_id = old.entity_id AND n <= 0;
  UPDATE entities SET type = (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = old.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1)
  WHERE id = old.entity_id
    AND EXISTS (SELECT 1 FROM entity_type_votes v WHERE v.entity_id = old.entity_id)
    AND type <> (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = old.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM entities e2 WHERE e2.norm_key = entities.norm_key AND e2.id <> entities.id
      AND e2.type = (SELECT v.type FROM entity_type_votes v WHERE v.entity_id = old.entity_id ORDER BY v.weight DESC, v.type = 'other', v.type LIMIT 1));
END;
