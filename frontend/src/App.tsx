import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { api, canPickFiles, errorMessage, transport, uploadFiles, type Document, type Hit, type Source } from "./api";
import { EventsEmit, WindowSetTitle } from "../wailsjs/runtime/runtime";
import { Icon, Logo, Notice } from "./components/ui";
import { benchSize, markStartup, startupTimeline } from "./lib/bench";
import { droppedFiles } from "./lib/drop";
import { count, plainError } from "./lib/format";
import { scopeOf } from "./lib/scope";
import { applyTheme, loadTheme, type Theme } from "./lib/settings";
import { useLibrary } from "./library";
import type { GraphHighlight } from "./views/Ask";
import LibraryView from "./views/Library";
import SearchView, { emptySearch, type SearchState } from "./views/Search";
import type { SourceTarget } from "./views/Source";

// The Library is all the first paint needs; every other view is its own
// chunk, loaded when first opened (the graph explorer brings sigma and
// graphology, the source viewer pdf.js), so a cold start parses only the
// Library's code. Once the Library has loaded, the likely next views are
// fetched in the background.
const loadAsk = () => import("./views/Ask");
const loadSource = () => import("./views/Source");
const AskView = lazy(loadAsk);
const GraphView = lazy(() => import("./views/Graph"));
const MindMapView = lazy(() => import("./views/MindMap"));
const ProjectsPanel = lazy(() => import("./views/Projects"));
const SettingsView = lazy(() => import("./views/Settings"));
const SourceView = lazy(loadSource);

/** UI_READY is emitted once the Library has loaded: the desktop starts its background work then. */
const UI_READY = "ui:ready";

type Main = "library" | "ask" | "mindmap" | "graph" | "search" | "settings";
type View = { name: Main } | { name: "source"; target: SourceTarget; from: Main };

const BACK: Record<Main, string> = {
  library: "Back to library",
  ask: "Back to the answer",
  mindmap: "Back to the mind map",
  graph: "Back to the graph",
  search: "Back to results",
  settings: "Back to settings",
};

/** Browsers can upload dropped files; the desktop imports them by path. */
const canUpload = transport === "http";

function modeLabel(mode: string): string {
  return mode === "ollama" ? "Ollama" : "Offline";
}

export default function App() {
  markStartup("first render");
  const lib = useLibrary();
  const [view, setView] = useState<View>({ name: benchSize(window.location.hash) ? "graph" : "library" });
  const [highlight, setHighlight] = useState<GraphHighlight | null>(null);
  const [askFocus, setAskFocus] = useState(0);
  // The documents questions are aimed at (the Library's selection, or one
  // document); their titles are the Library's, so a rename shows at once.
  const [askIds, setAskIds] = useState<number[]>([]);
  const askScope = useMemo(() => scopeOf(askIds, lib.docs), [askIds, lib.docs]);
  const askDocs = useCallback((ds: { id: number }[]) => {
    setAskIds(ds.map((d) => d.id));
    setView({ name: "ask" });
    setAskFocus((n) => n + 1);
  }, []);
  // Views stay mounted while the source is open, so going back keeps their state.
  const [seen, setSeen] = useState<Set<Main>>(new Set(["library"]));
  const current: Main = view.name === "source" ? view.from : view.name;
  useEffect(() => setSeen((s) => (s.has(current) ? s : new Set(s).add(current))), [current]);

  const [showProjects, setShowProjects] = useState(false);
  const [theme, setThemeState] = useState<Theme>(() => loadTheme(safeStorage(), window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false));
  useEffect(() => applyTheme(theme, document.documentElement, safeStorage()), [theme]);
  const [defaultDeep, setDefaultDeep] = useState(false);
  useEffect(() => {
    if (current === "ask") api.getSettings().then((st) => setDefaultDeep(st?.answer_mode === "deep"), () => {});
  }, [current]);

  // Keyboard: Ctrl/⌘-K asks, Esc closes the source panel (dialogs close themselves).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setShowProjects(false);
        setView({ name: "ask" });
        setAskFocus((n) => n + 1);
      } else if (e.key === "Escape" && !document.querySelector(".scrim")) {
        setView((v) => (v.name === "source" ? { name: v.from } : v));
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const [search, setSearch] = useState<SearchState>(emptySearch);
  const [dragging, setDragging] = useState(false);
  const [uploadError, setUploadError] = useState("");

  // Another project was opened: every view starts afresh on the library.
  useEffect(() => {
    if (lib.generation === 0) return;
    setView({ name: "library" });
    setSeen(new Set(["library"]));
    setHighlight(null);
    setSearch(emptySearch);
    setAskIds([]);
  }, [lib.generation]);

  // The window title names the project once the library has loaded (the
  // desktop smoke test times "interactive" by it).
  useEffect(() => {
    if (transport !== "none" && lib.loaded && lib.info?.name) WindowSetTitle(`Cairn — ${lib.info.name}`);
  }, [lib.loaded, lib.info?.name]);

  // Once the Library is on screen: tell the desktop (which holds back the
  // sample import, vector warm-up and Ollama probe until then, so they do not
  // compete with the first paint), and fetch the likely next views' code.
  useEffect(() => {
    if (!lib.loaded) return;
    markStartup("library loaded");
    if (transport === "desktop") EventsEmit(UI_READY, startupTimeline());
    const t = setTimeout(() => {
      loadAsk().catch(() => {});
      loadSource().catch(() => {});
    }, 300);
    return () => clearTimeout(t);
  }, [lib.loaded]);

  // Desktop: files dropped anywhere are imported by the Go side; show where.
  useEffect(() => {
    let depth = 0;
    const isFiles = (e: DragEvent) => e.dataTransfer?.types.includes("Files") ?? false;
    const enter = (e: DragEvent) => {
      if (!isFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!isFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => isFiles(e) && e.preventDefault();
    const drop = (e: DragEvent) => {
      if (!isFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      if (canPickFiles) setView({ name: "library" });
      else if (canUpload && e.dataTransfer) {
        // Serve mode: send the bytes; the server imports them like a desktop drop.
        setView({ name: "library" });
        setUploadError("");
        droppedFiles(e.dataTransfer)
          .then((files) => {
            if (files.length === 0) throw "Nothing to import in what was dropped.";
            return uploadFiles(files);
          })
          .catch((err) => setUploadError(errorMessage(err)));
      }
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragleave", leave);
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  }, []);

  const openHit = (h: Hit) =>
    setView({
      name: "source",
      from: "search",
      target: {
        docId: h.doc_id,
        title: h.doc_title || `Document ${h.doc_id}`,
        kind: lib.docs.find((d) => d.id === h.doc_id)?.kind,
        charStart: h.char_start,
        charEnd: h.char_end,
        pageStart: h.page_start,
        pageEnd: h.page_end,
        headingPath: h.heading_path,
        query: search.ran,
      },
    });

  const openDoc = (d: Document) =>
    setView({ name: "source", from: "library", target: { docId: d.id, title: d.title || d.file_name, kind: d.kind } });

  const docs = lib.docs;
  const openSource = useCallback(
    (s: Source, opts?: { title?: string; label?: string }) => {
      const d = docs.find((x) => x.id === s.doc_id);
      setView((v) => ({
        name: "source",
        from: v.name === "source" ? v.from : v.name,
        target: {
          docId: s.doc_id,
          title: opts?.title || d?.title || d?.file_name || `Document ${s.doc_id}`,
          kind: d?.kind,
          charStart: s.char_end > s.char_start ? s.char_start : undefined,
          charEnd: s.char_end > s.char_start ? s.char_end : undefined,
          pageStart: s.page_start || undefined,
          pageEnd: s.page_end || undefined,
        },
      }));
    },
    [docs],
  );
  const showInGraph = (h: GraphHighlight) => {
    setHighlight(h);
    setView({ name: "graph" });
  };

  const active = current;
  const nav = (name: Main, label: string, icon: string, extra?: React.ReactNode) => (
    <button className={`nav-item${active === name ? " active" : ""}`} onClick={() => setView({ name })} data-testid={`nav-${name}`} aria-current={active === name ? "page" : undefined}>
      <Icon name={icon} />
      <span>{label}</span>
      {extra}
    </button>
  );

  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <Logo size={30} />
          <span>Cairn</span>
        </div>
        <nav className="nav" aria-label="Views">
          {nav("library", "Library", "library", <span className="nav-count tabular">{count(lib.docs.length)}</span>)}
          {nav("ask", "Ask", "ask", <kbd className="nav-kbd">Ctrl K</kbd>)}
          {nav("mindmap", "Mind maps", "mindmap")}
          {nav("graph", "Graph", "graph")}
          {nav("search", "Search", "search")}
          {nav("settings", "Settings", "settings")}
        </nav>
        <div className="sidebar-foot">
          <button className="project-name" title={`${lib.info?.dir ?? ""}\nSwitch, create, rename or delete projects`} onClick={() => setShowProjects(true)} data-testid="project-switcher">
            <div className="eyebrow">Project</div>
            <div className="project-title" data-testid="project-title">
              {lib.info?.name || "—"}
              <span className="chev" aria-hidden="true">
                ⌄
              </span>
            </div>
          </button>
          <div className={`mode mode-${lib.mode}`} data-testid="mode-badge" title={lib.mode === "ollama" ? "Answers come from a local Ollama model." : "No model connected: Cairn works fully offline with its built-in engine."}>
            <span className="mode-dot" />
            {modeLabel(lib.mode)}
          </div>
          {lib.importing.running && <div className="foot-note">Importing…</div>}
        </div>
      </aside>

      <main className={`main${active === "graph" && view.name !== "source" ? " main-fill" : ""}`}>
        <Suspense fallback={<div className="pane subtle" data-testid="view-loading" />}>
          {uploadError && (
            <div className="pane-notice">
              <Notice tone="bad" onClose={() => setUploadError("")}>
                <strong>The dropped files were not imported.</strong> {plainError(uploadError)}
              </Notice>
            </div>
          )}
          <div hidden={view.name !== "library"} className="pane">
            <LibraryView lib={lib} onOpen={openDoc} onAsk={askDocs} />
          </div>
          {seen.has("ask") && (
            <div hidden={view.name !== "ask"} className="pane" key={`ask-${lib.generation}`}>
              <AskView onOpenSource={openSource} onShowInGraph={showInGraph} focusKey={askFocus} defaultDeep={defaultDeep} scope={askScope} onClearScope={() => setAskIds([])} indexing={lib.indexing} />
            </div>
          )}
          {seen.has("mindmap") && (
            <div hidden={view.name !== "mindmap"} className="pane" key={`mm-${lib.generation}`}>
              <MindMapView docs={lib.docs} onOpenSource={openSource} />
            </div>
          )}
          {view.name === "settings" && (
            <div className="pane">
              <SettingsView mode={lib.mode} theme={theme} setTheme={setThemeState} />
            </div>
          )}
          {view.name === "graph" && <GraphView key={`g-${lib.generation}`} docs={lib.docs} onOpenSource={openSource} highlight={highlight} scope={askScope} onClearScope={() => setAskIds([])} />}
          {view.name === "search" && <SearchView state={search} setState={setSearch} hasDocuments={lib.docs.length > 0} onOpen={openHit} scope={askScope} onClearScope={() => setAskIds([])} />}
          {view.name === "source" && (
            <SourceView target={view.target} backLabel={BACK[view.from]} onBack={() => setView({ name: view.from })} onAsk={() => askDocs([{ id: view.target.docId }])} />
          )}
        </Suspense>
      </main>

      {showProjects && (
        <Suspense fallback={null}>
          <ProjectsPanel onClose={() => setShowProjects(false)} />
        </Suspense>
      )}

      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-card">
            <Icon name="drop" size={32} />
            <div className="drop-title">{canPickFiles || canUpload ? "Drop to import" : "Dropping files works in the desktop app"}</div>
            <div className="subtle">{canPickFiles || canUpload ? "PDF, Word, text and Markdown files, or whole folders" : "Use Import and give the files’ paths."}</div>
          </div>
        </div>
      )}
    </div>
  );
}

/** localStorage, or undefined where the browser blocks it. */
function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
