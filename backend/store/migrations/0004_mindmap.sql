-- Version 4: mind maps (PG-RAG) and their fusion across documents.
--
-- mind_maps holds one row per document whose map has been built: how it was
-- made (offline, by a model, or a model failure with the offline tree kept).
-- No row = pending. Any change to a document's chunks drops its row (trigger
-- below) and with it the whole tree, so a re-indexed document is rebuilt.
--
-- mind_nodes is the tree: one topic per document, routes (headings / key
-- phrases), facts as leaves. Facts carry their chunk, page span and byte span
-- in the document text (pages joined with \f, as chunk spans are).
-- path_text is the node's path context (topic › route › … › node), which is
-- what mind_vec embeds and mind_fts indexes.
--
-- mind_vec always holds vectors of Cairn's built-in hashed embedder at
-- 1024 dimensions (embed.NewHashed(embed.DefaultDim)), whatever embedder the
-- project's chunks use: mind-map vectors are compared only with each other
-- and with questions embedded the same way.

CREATE TABLE mind_maps (
  doc_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  mode     TEXT    NOT NULL CHECK (mode IN ('offline','llm','failed')),
  model    TEXT    NOT NULL DEFAULT '',
  error    TEXT    NOT NULL DEFAULT '',
  built_at TEXT    NOT NULL
);

CREATE TABLE mind_nodes (
  id         INTEGER PRIMARY KEY,
  doc_id     INTEGER NOT NULL REFERENCES mind_maps(doc_id) ON DELETE CASCADE,
  parent_id  INTEGER REFERENCES mind_nodes(id) ON DELETE CASCADE,
  kind       TEXT    NOT NULL CHECK (kind IN ('topic','route','fact')),
  label      TEXT    NOT NULL,
  ordinal    INTEGER NOT NULL,
  chunk_id   INTEGER REFERENCES chunks(id) ON DELETE CASCADE,
  page_start INTEGER NOT NULL DEFAULT 0,
  page_end   INTEGER NOT NULL DEFAULT 0,
  char_start INTEGER NOT NULL DEFAULT 0,
  char_end   INTEGER NOT NULL DEFAULT 0,
  path_text  TEXT    NOT NULL,
  fused      INTEGER NOT NULL DEFAULT 0, -- 1 once fusion has considered the node
  UNIQUE (doc_id, ordinal)
);
CREATE INDEX mind_nodes_parent ON mind_nodes(parent_id);
CREATE INDEX mind_nodes_chunk ON mind_nodes(chunk_id);
CREATE INDEX mind_nodes_pending ON mind_nodes(fused) WHERE fused = 0;

CREATE VIRTUAL TABLE mind_vec USING vec0(
  node_id INTEGER PRIMARY KEY,
  embedding float[1024] distance_metric=cosine
);

-- Lexical index over node labels and path contexts (rowid = mind_nodes.id);
-- cjk holds character bigrams of CJK runs, as chunks_fts does.
CREATE VIRTUAL TABLE mind_fts USING fts5(
  label, path, cjk,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER mind_nodes_delete AFTER DELETE ON mind_nodes BEGIN
  DELETE FROM mind_vec WHERE node_id = old.id;
  DELETE FROM mind_fts WHERE rowid = old.id;
END;

-- A changed or removed chunk invalidates its document's whole map.
CREATE TRIGGER mind_chunks_delete AFTER DELETE ON chunks BEGIN
  DELETE FROM mind_maps WHERE doc_id = old.doc_id;
END;

-- Fusion: clusters of similar nodes from different documents.
CREATE TABLE supernodes (
  id    INTEGER PRIMARY KEY,
  kind  TEXT NOT NULL CHECK (kind IN ('topic','route','fact')),
  label TEXT NOT NULL
);

CREATE TABLE supernode_members (
  supernode_id INTEGER NOT NULL REFERENCES supernodes(id) ON DELETE CASCADE,
  node_id      INTEGER NOT NULL UNIQUE REFERENCES mind_nodes(id) ON DELETE CASCADE,
  sim          REAL    NOT NULL,
  PRIMARY KEY (supernode_id, node_id)
) WITHOUT ROWID;

-- A supernode that no longer links two nodes dissolves; its last member
-- goes back to fusion's pending work so it can join another cluster.
CREATE TRIGGER supernode_members_delete AFTER DELETE ON supernode_members
WHEN (SELECT count(*) FROM supernode_members WHERE supernode_id = old.supernode_id) < 2
BEGIN
  UPDATE mind_nodes SET fused = 0 WHERE id IN (SELECT node_id FROM supernode_members WHERE supernode_id = old.supernode_id);
  DELETE FROM supernodes WHERE id = old.supernode_id;
END;
