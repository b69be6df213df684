-- Entity attributes kept up to date incrementally.
--
-- mentions_insert (0003) recomputed an entity's name, description,
-- semantic type, aliases and alias keys from all its mentions on every new
-- mention: quadratic in the mentions of a popular entity. On the 10k-chunk
-- eval corpus the mention inserts were 40% of offline graph indexing, and
-- the 100k-chunk corpus (each passage about 8.5 times) slowed from 130 to
-- under 20 chunks/s as entities grew.
--
-- entity_values counts each entity's surface forms, descriptions and
-- semantic types. Adding a mention raises one count, so the most frequent
-- value is either the old one or the new mention's: the entity row is
-- compared with it by the same rules as before (count, then length for
-- descriptions, then the smaller text). Aliases and alias keys only grow on
-- an insert. A delete recomputes from entity_values and, for aliases, from
-- the mentions left, as before. TestEntityAttributesIncremental checks the
-- result against a full recomputation.
CREATE TABLE entity_values (
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  kind      TEXT    NOT NULL, -- 'surface', 'description' or 'semantic_type'
  value     TEXT    NOT NULL,
  n         INTEGER NOT NULL,
  PRIMARY KEY (entity_id, kind, value)
) WITHOUT ROWID;
INSERT INTO entity_values(entity_id, kind, value, n)
  SELECT entity_id, 'surface', surface, count(*) FROM mentions GROUP BY entity_id, surface;
INSERT INTO entity_values(entity_id, kind, value, n)
  SELECT entity_id, 'description', description, count(*) FROM mentions WHERE description <> '' GROUP BY entity_id, description;
INSERT INTO entity_values(entity_id, kind, value, n)
  SELECT entity_id, 'semantic_type', semantic_type, count(*) FROM mentions WHERE semantic_type <> '' GROUP BY entity_id, semantic_type;

DROP TRIGGER mentions_insert;
CREATE TRIGGER mentions_insert AFTER INSERT ON mentions BEGIN
  INSERT INTO entity_values(entity_id, kind, value, n) SELECT new.entity_id, 'surface', new.surface, 1 WHERE true
    ON CONFLICT(entity_id, kind, value) DO UPDATE SET n = n + 1;
  INSERT INTO entity_values(entity_id, kind, value, n) SELECT new.entity_id, 'description', new.description, 1 WHERE new.description <> ''
    ON CONFLICT(entity_id, kind, value) DO UPDATE SET n = n + 1;
  INSERT INTO entity_values(entity_id, kind, value, n) SELECT new.entity_id, 'semantic_type', new.semantic_type, 1 WHERE new.semantic_type <> ''
    ON CONFLICT(entity_id, kind, value) DO UPDATE SET n = n + 1;
  -- every surface and given alias so far, the current name included when an
  -- earlier mention made it (a new entity's row name comes from no mention)
  UPDATE entities SET aliases = (SELECT coalesce(json_group_array(a ORDER BY a), '[]') FROM (
      SELECT j.value AS a FROM json_each(entities.aliases) j
      UNION SELECT entities.name WHERE EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = new.entity_id AND m.id <> new.id)
      UNION SELECT new.surface
      UNION SELECT j.value FROM json_each(new.aliases) j))
  WHERE id = new.entity_id;
  UPDATE entities SET
    name = CASE
      WHEN (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'surface' AND value = new.surface) >
           coalesce((SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'surface' AND value = entities.name), 0)
        OR ((SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'surface' AND value = new.surface) =
            coalesce((SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'surface' AND value = entities.name), 0)
            AND new.surface < entities.name)
      THEN new.surface ELSE entities.name END,
    description = CASE
      WHEN new.description = '' THEN entities.description
      WHEN entities.description = '' THEN new.description
      WHEN (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'description' AND value = new.description) >
           (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'description' AND value = entities.description)
        OR ((SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'description' AND value = new.description) =
            (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'description' AND value = entities.description)
            AND (length(new.description) > length(entities.description)
                 OR (length(new.description) = length(entities.description) AND new.description < entities.description)))
      THEN new.description ELSE entities.description END,
    semantic_type = CASE
      WHEN new.semantic_type = '' THEN entities.semantic_type
      WHEN entities.semantic_type = '' THEN new.semantic_type
      WHEN (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'semantic_type' AND value = new.semantic_type) >
           (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'semantic_type' AND value = entities.semantic_type)
        OR ((SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'semantic_type' AND value = new.semantic_type) =
            (SELECT n FROM entity_values WHERE entity_id = new.entity_id AND kind = 'semantic_type' AND value = entities.semantic_type)
            AND new.semantic_type < entities.semantic_type)
      THEN new.semantic_type ELSE entities.semantic_type END,
    vec_stale = 1
  WHERE id = new.entity_id;
  UPDATE entities SET aliases = (SELECT coalesce(json_group_array(j.value ORDER BY j.value), '[]') FROM json_each(entities.aliases) j WHERE j.value <> entities.name)
  WHERE id = new.entity_id;
  INSERT OR IGNORE INTO entity_aliases(alias_norm, entity_id)
    SELECT new.norm_key, new.entity_id
    UNION SELECT j.value, new.entity_id FROM json_each(new.alias_norms) j WHERE j.value <> '';
END;

DROP TRIGGER mentions_delete;
CREATE TRIGGER mentions_delete AFTER DELETE ON mentions BEGIN
  UPDATE entity_values SET n = n - 1 WHERE entity_id = old.entity_id
    AND ((kind = 'surface' AND value = old.surface)
      OR (kind = 'description' AND value = old.description)
      OR (kind = 'semantic_type' AND value = old.semantic_type));
  DELETE FROM entity_values WHERE entity_id = old.entity_id AND n <= 0;
  DELETE FROM entities WHERE id = old.entity_id
    AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = old.entity_id);
  UPDATE entities SET
    name          = (SELECT value FROM entity_values WHERE entity_id = old.entity_id AND kind = 'surface' ORDER BY n DESC, value LIMIT 1),
    description   = coalesce((SELECT value FROM entity_values WHERE entity_id = old.entity_id AND kind = 'description' ORDER BY n DESC, length(value) DESC, value LIMIT 1), ''),
    semantic_type = coalesce((SELECT value FROM entity_values WHERE entity_id = old.entity_id AND kind = 'semantic_type' ORDER BY n DESC, value LIMIT 1), ''),
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
