-- Page layout (issue 15): each page's blocks (kind, heading level, byte
-- span in the page text, box on the page), its printed page label, and the
-- running headers, footers and page numbers kept out of its text, as JSON.
-- Empty for pages read before this version (re-read them to fill it).
ALTER TABLE pages ADD COLUMN layout TEXT NOT NULL DEFAULT '';

-- reader: the version of the reader that produced a document's pages and
-- chunks (kb.ReaderVersion). Documents read by an older reader are read
-- again from their stored originals by the "reread" index stage.
ALTER TABLE documents ADD COLUMN reader INTEGER NOT NULL DEFAULT 0;
