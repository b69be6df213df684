-- Document identity (issue 26): what tells a library's documents apart.
-- title stays the title the passages were indexed under (their vectors,
-- lexical rows and word counts were made with it); display_title is the
-- title shown everywhere, decided for the whole library (backend/identity)
-- or written by the user. identity_user = 1: the user edited the identity,
-- recomputing leaves it alone. meta_title is the file's own metadata title.
ALTER TABLE documents ADD COLUMN display_title TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN organisation TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN doc_type TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN period TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN meta_title TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN identity_user INTEGER NOT NULL DEFAULT 0;
