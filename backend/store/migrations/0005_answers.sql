-- Version 5: answers to questions, each with its full trace (plan, steps,
-- subgraph, paths, timings, model usage) as JSON. Citations and paths are
-- kept as JSON too: they point at chunks by id and carry their own page and
-- char spans, so an answer stays readable after its documents are removed
-- (the UI marks such citations as gone).
CREATE TABLE answers (
  id         INTEGER PRIMARY KEY,
  question   TEXT    NOT NULL,
  answer     TEXT    NOT NULL,
  declined   INTEGER NOT NULL DEFAULT 0,
  mode       TEXT    NOT NULL CHECK (mode IN ('quick','deep')),
  citations  TEXT    NOT NULL DEFAULT '[]',
  paths      TEXT    NOT NULL DEFAULT '[]',
  trace      TEXT    NOT NULL DEFAULT '{}',
  asked_at   TEXT    NOT NULL
);
CREATE INDEX answers_asked ON answers(asked_at);
