// useLibrary: the project, its documents and the import in progress, kept
// current from backend events. Holds data only; views render it.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  api,
  errorMessage,
  IMPORT_DONE,
  IMPORT_PROGRESS,
  IMPORT_STARTED,
  LIBRARY_CHANGED,
  onEvent,
  type Document,
  type ImportDone,
  type ImportStatus,
  type Progress,
  type ProjectInfo,
} from "./api";

export interface ImportState {
  running: boolean;
  files: string[];
  last: Progress | null;
  /** Results of the files finished so far in this import. */
  finished: number;
}

export interface Library {
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

export function useLibrary(): Library {
  const [info, setInfo] = useState<ProjectInfo | null>(null);
  const [mode, setMode] = useState("offline");
  const [docs, setDocs] = useState<Document[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState("");
  const [importing, setImporting] = useState<ImportState>(idle);
  const [lastDone, setLastDone] = useState<ImportDone | null>(null);
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const n = ++seq.current;
    try {
      const [i, d] = await Promise.all([api.projectInfo(), api.listDocuments()]);
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
    reload();
    api.mode().then(setMode, () => {});
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
    ];
    return () => offs.forEach((off) => off());
  }, [reload]);

  return { info, mode, docs, loaded, error, importing, lastDone, dismissDone: () => setLastDone(null), reload };
}
