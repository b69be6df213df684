-- A passage that starts inside a table, below the table's header row,
-- keeps that row (issue 15: a table cut into passages, or carried over a
-- page, is read by its columns). It is shown with the passage and given to
-- the models and the indexes; it is not part of the passage's text or span.
ALTER TABLE chunks ADD COLUMN table_header TEXT NOT NULL DEFAULT '';
