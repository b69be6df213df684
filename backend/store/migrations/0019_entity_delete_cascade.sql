-- Version 19: a deleted entity's mentions go without recomputing it.
--
-- mentions_delete (0010) recomputes an entity's aliases and alias keys from
-- the mentions it has left, once per deleted mention. When the entity
-- itself is deleted (store.mergeEntity moves a short form's mentions onto
-- the name it abbreviates, then deletes the short form), its mentions went
-- one by one first, each recomputing over the rest: quadratic in a popular
-- short form's mentions, 26 s of a 30-report library's 91 s of indexing.
-- Now the entity row is deleted and its mentions, values, votes and alias
-- keys follow by ON DELETE CASCADE; the trigger has nothing to keep for an
-- entity that is gone and does not run for one.
DROP TRIGGER mentions_delete;
CREATE TRIGGER mentions_delete AFTER DELETE ON mentions
WHEN EXISTS (SELECT 1 FROM entities WHERE id = old.entity_id) BEGIN
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
