-- Finding the entities and relations to re-embed (vec_stale = 1) scanned
-- both tables once per saved chunk, which made the graph stage quadratic:
-- 37% of project.Index's time on a 10,000-chunk corpus. Partial indexes
-- hold only the few stale rows.
CREATE INDEX entities_vec_stale ON entities(id) WHERE vec_stale = 1;
CREATE INDEX relations_vec_stale ON relations(id) WHERE vec_stale = 1;
