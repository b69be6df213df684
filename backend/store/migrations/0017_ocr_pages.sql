-- OCR as an indexing stage (issue 29, item 6). Reading a PDF no longer runs
-- OCR: a page without a text layer is stored with ocr_status 'pending' and
-- the "ocr" index stage reads it with tesseract later, one page per
-- transaction, so a run killed at any point resumes at the next page.
--   ''        nothing to do: a page with text, or one read before this version
--   'pending' awaiting OCR
--   'done'    OCR text stored as the page's text (ocr = 1)
--   'empty'   OCR ran and found no reliable text (the page keeps no_text = 1)
--   'failed'  OCR stopped on this page; ocr_note says why
ALTER TABLE pages ADD COLUMN ocr_status TEXT NOT NULL DEFAULT ''
  CHECK (ocr_status IN ('', 'pending', 'done', 'empty', 'failed'));
ALTER TABLE pages ADD COLUMN ocr_note TEXT NOT NULL DEFAULT '';
CREATE INDEX pages_ocr_pending ON pages(doc_id, number) WHERE ocr_status = 'pending';
