-- Version 21: pages found by their printed number.
--
-- A question that names a page ("what is on page 12?") is looked for on
-- the page printed with that number (search's page list); the number is
-- the label in the page's layout JSON. This index finds those pages
-- without reading every page's layout. The expression must be written the
-- same way in the query (ChunksOnPages) for SQLite to use it.
CREATE INDEX pages_label ON pages(json_extract(nullif(layout, ''), '$.label'));
