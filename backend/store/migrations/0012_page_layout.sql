-- Page layout (issue 15): each page's blocks (kind, heading level, byte
-- span in the page text, box on the page), its printed page label, and the
-- running headers, footers and page numbers kept out of its text, as JSON.
-- Empty for pages read before this version (re-read them to fill it).
ALTER TABLE pages ADD COLUMN layout TEXT NOT NULL DEFAULT '';
