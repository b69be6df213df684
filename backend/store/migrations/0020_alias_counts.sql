-- Version 20: a deleted mention updates its entity's aliases from counts.
--
-- mentions_delete (0010, 0019) rebuilt the entity's aliases and alias keys
-- from every mention it has left, once per deleted mention: quadratic in a
-- popular entity's mentions. Reading a 30-report library again with a new
-- reader deletes its old passages, and with them tens of thousands of
-- mentions of names the reports share; that took most of the run.
--
-- entity_values now also counts each entity's given aliases ('alias', from
-- the mentions' aliases) and alias keys ('alias_norm': the mentions'
-- norm_key and alias_norms), as it counts surfaces. A delete lowers the
-- counts of the deleted mention's values and rebuilds the aliases from the
-- surfaces and aliases still counted, and drops only the alias keys whose
-- count reached zero: the same result as the rebuild from the mentions
-- (TestEntityAttributesIncremental compares the two after every step).
INSERT INTO entity_values(entity_id, kind, value, n)
  SELECT m.entity_id, 'alias', j.value, count(*) FROM mentions m, json_each(m.aliases) j GROUP BY m.entity_id, j.value;
INSERT INTO entity_values(entity_id, kind, value, n)
  SELECT entity_id, 'alias_norm', k, count(*) FROM (
    SELECT entity_id, norm_key AS k FROM mentions
    UNION ALL SELECT m.entity_id, j.value FROM mentions m, json_each(m.alias_norms) j WHERE j.value <> '')
  GROUP BY entity_id, k;

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
  -- the given aliases and the alias keys, counted (0020)
  INSERT INTO entity_values(entity_id, kind, value, n) SELECT new.entity_id, 'alias', j.value, 1 FROM json_each(new.aliases) j WHERE true
    ON CONFLICT(entity_id, kind, value) DO UPDATE SET n = n + 1;
  INSERT INTO entity_values(entity_id, kind, value, n) SELECT new.entity_id, 'alias_norm', k, 1
    FROM (SELECT new.norm_key AS k UNION ALL SELECT j.value FROM json_each(new.alias_norms) j WHERE j.value <> '') WHERE true
    ON CONFLICT(entity_id, kind, value) DO UPDATE SET n = n + 1;
END;

DROP TRIGGER mentions_delete;
CREATE TRIGGER mentions_delete AFTER DELETE ON mentions
WHEN EXISTS (SELECT 1 FROM entities WHERE id = old.entity_id) BEGIN
  UPDATE entity_values SET n = n - 1 WHERE entity_id = old.entity_id
    AND ((kind = 'surface' AND value = old.surface)
      OR (kind = 'description' AND value = old.description)
      OR (kind = 'semantic_type' AND value = old.semantic_type));
  UPDATE entity_values SET n = n - (SELECT count(*) FROM json_each(old.aliases) j WHERE j.value = entity_values.value)
    WHERE entity_id = old.entity_id AND kind = 'alias'
      AND value IN (SELECT j.value FROM json_each(old.aliases) j);
  UPDATE entity_values SET n = n - (SELECT count(*) FROM (SELECT old.norm_key AS k UNION ALL SELECT j.value FROM json_each(old.alias_norms) j WHERE j.value <> '') WHERE k = entity_values.value)
    WHERE entity_id = old.entity_id AND kind = 'alias_norm'
      AND value IN (SELECT old.norm_key UNION ALL SELECT j.value FROM json_each(old.alias_norms) j WHERE j.value <> '');
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
      SELECT DISTINCT value AS a FROM entity_values WHERE entity_id = old.entity_id AND kind IN ('surface', 'alias')) WHERE a <> entities.name)
  WHERE id = old.entity_id;
  DELETE FROM entity_aliases WHERE entity_id = old.entity_id
    AND alias_norm IN (SELECT old.norm_key UNION SELECT j.value FROM json_each(old.alias_norms) j)
    AND NOT EXISTS (SELECT 1 FROM entity_values v WHERE v.entity_id = old.entity_id AND v.kind = 'alias_norm' AND v.value = entity_aliases.alias_norm);
END;
