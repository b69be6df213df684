// useLibrary: the project, its documents and the import in progress, kept
// current from backend events. Holds data only; views render it.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  api,
  errorMessage,
  has,
  INDEX_DONE,
  INDEX_PROGRESS,
  INDEX_STARTED,
  type IndexProgress,
  IMPORT_DONE,
  IMPORT_PROGRESS,
  IMPORT_STARTED,
  LIBRARY_CHANGED,
  MODE_CHANGED,
  PROJECT_CHANGED,
  onEvent,
  type Document,
  type ImportDone,
  type ImportStatus,
  type Progress,
  type ProjectInfo,
} from "./api";
import { markStartup } from "./lib/bench";
import { etaSeconds, nsToSeconds, type Sample } from "./lib/eta";

export interface ImportState {
  running: boolean;
  files: string[];
  last: Progress | null;
  /** Results of the files finished so far in this import. */
  finished: number;
}

export interface IndexingState {
  running: boolean;
  last: IndexProgress | null;
  /** Seconds left: the backend's estimate, else from the observed rate. */
  eta: number | null;
  error: string;
  /** What the model did wrong during the last run (indexing went on offline), in words a person reads. */
  warning?: string;
}

export interface Library {
  indexing: IndexingState;
  /** Increases whenever another project is opened: views keyed on it start afresh. */
  generation: number;
  info: ProjectInfo | null;
  mode: string;
  docs: Document[];
  loaded: boolean;
  error: string;
  importing: ImportState;
  lastDone: ImportDone | null;
  dismissDone: () => void;
  reload: () => Promise<void>;
}

/** The project's name, or its folder's name when it has none. */
function named(i: ProjectInfo): ProjectInfo {
  if (i && !i.name && i.dir) return { ...i, name: i.dir.split(/[\\/]/).filter(Boolean).pop() ?? "" } as ProjectInfo;
  return i;
}

const idle: ImportState = { running: false, files: [], last: null, finished: 0 };

type LibraryData = [ProjectInfo, Document[] | null];
let early: Promise<LibraryData> | null = null;

/** The project and its documents (a rejected promise, never a throw, without a backend). */
function fetchLibrary(): Promise<LibraryData> {
  return Promise.resolve().then(() => Promise.all([api.projectInfo(), api.listDocuments()]));
}

/**
 * Starts the Library's first data calls before React renders (main.tsx), so
 * they travel while the page paints its first frame instead of after it
 * (effects run only once that frame is painted). The first useLibrary load
 * takes this answer; later loads ask again.
 */
export function prefetchLibrary(): void {
  if (early) return;
  markStartup("first data call");
  early = fetchLibrary();
  early.catch(() => {}); // handled where it is consumed
}

function loadLibrary(): Promise<LibraryData> {
  const p = early ?? fetchLibrary();
  early = null;
  return p;
}

export function useLibrary(): Library {
  const [info, setInfo] = useState<ProjectInfo | null>(null);
  const [mode, setMode] = useState("offline");
  const [docs, setDocs] = useState<Document[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState("");
  const [importing, setImporting] = useState<ImportState>(idle);
  const [lastDone, setLastDone] = useState<ImportDone | null>(null);
  const seq = useRef(0);
  const [indexing, setIndexing] = useState<IndexingState>({ running: false, last: null, eta: null, error: "" });
  const samples = useRef<Sample[]>([]);
  const [generation, setGeneration] = useState(0);

  const reload = useCallback(async () => {
    const n = ++seq.current;
    try {
      const [i, d] = await loadLibrary();
      if (n !== seq.current) return;
      setInfo(named(i));
      setDocs(d ?? []);
      setError("");
    } catch (e) {
      if (n !== seq.current) return;
      setError(errorMessage(e));
      // The project summary may still be available when listing is not.
      api.projectInfo().then((i) => setInfo(named(i)), () => {});
    } finally {
      if (n === seq.current) setLoaded(true);
    }
  }, []);

  useEffect(() => {
    markStartup("first data call");
    reload();
    api.mode().then(setMode, () => {});
    if (has("IndexStatus"))
      api.indexStatus().then((s) => s?.running && setIndexing({ running: true, last: s.last ?? null, eta: nsToSeconds(s.last?.eta_ns), error: "" }), () => {});
    api.importStatus().then((s: ImportStatus) => {
      if (s?.running) setImporting({ running: true, files: s.files ?? [], last: s.last ?? null, finished: 0 });
      else if (s?.done && (s.done.error || s.done.results?.some((r) => r.status !== "ok"))) {
        // A UI that connects after an import learns about it only if something needs attention.
        setLastDone({ results: s.done.results ?? [], error: s.done.error });
      }
    }, () => {});
    const offs = [
      onEvent<ImportStatus>(IMPORT_STARTED, (s) => {
        setLastDone(null);
        setImporting({ running: true, files: s?.files ?? [], last: null, finished: 0 });
      }),
      onEvent<Progress>(IMPORT_PROGRESS, (p) => {
        setImporting((cur) => ({
          running: true,
          files: cur.files,
          last: p,
          finished: cur.finished + (p?.stage === "done" ? 1 : 0),
        }));
        if (p?.stage === "done") reload();
      }),
      onEvent<ImportDone>(IMPORT_DONE, (d) => {
        setImporting(idle);
        setLastDone(d ?? { results: [] });
        reload();
      }),
      onEvent(LIBRARY_CHANGED, () => reload()),
      // The mode badge is live: Ollama started, stopped, or Settings changed.
      onEvent<{ mode?: string }>(MODE_CHANGED, (st) => st?.mode && setMode(st.mode)),
      // Another project was opened: nothing of the old one applies any more.
      onEvent<ProjectInfo>(PROJECT_CHANGED, (i) => {
        setImporting(idle);
        setLastDone(null);
        samples.current = [];
        setIndexing({ running: false, last: null, eta: null, error: "" });
        setDocs([]);
        setLoaded(false);
        if (i) setInfo(named(i));
        setGeneration((g) => g + 1);
        reload();
      }),
      onEvent(INDEX_STARTED, () => {
        samples.current = [];
        setIndexing({ running: true, last: null, eta: null, error: "" });
      }),
      onEvent<IndexProgress>(INDEX_PROGRESS, (p) => {
        if (!p) return;
        const last = samples.current[samples.current.length - 1];
        if (last && (p.stage !== (last as Sample & { stage?: string }).stage)) samples.current = [];
        samples.current.push({ t: performance.now(), done: p.done, total: p.total, stage: p.stage } as Sample);
        setIndexing({ running: true, last: p, eta: nsToSeconds(p.eta_ns) ?? etaSeconds(samples.current), error: "" });
      }),
      onEvent<{ error?: string; warning?: string }>(INDEX_DONE, (d) =>
        setIndexing({ running: false, last: null, eta: null, error: d?.error ?? "", warning: d?.warning ?? "" }),
      ),
    ];
    return () => offs.forEach((off) => off());
  }, [reload]);

  return { indexing, generation, info, mode, docs, loaded, error, importing, lastDone, dismissDone: () => setLastDone(null), reload };
}
