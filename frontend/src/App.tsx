import { useCallback, useEffect, useState } from "react";
import { canPickFiles, type Document, type Hit, type Source } from "./api";
import { Icon, Logo } from "./components/ui";
import { count } from "./lib/format";
import { queryTerms } from "./lib/highlight";
import { useLibrary } from "./library";
import AskView, { type GraphHighlight } from "./views/Ask";
import GraphView, { benchSize } from "./views/Graph";
import LibraryView from "./views/Library";
import MindMapView from "./views/MindMap";
import SearchView, { emptySearch, type SearchState } from "./views/Search";
import SourceView, { type SourceTarget } from "./views/Source";

type Main = "library" | "ask" | "mindmap" | "graph" | "search";
type View = { name: Main } | { name: "source"; target: SourceTarget; from: Main };

const BACK: Record<Main, string> = {
  library: "Back to library",
  ask: "Back to the answer",
  mindmap: "Back to the mind map",
  graph: "Back to the graph",
  search: "Back to results",
};

function modeLabel(mode: string): string {
  return mode === "ollama" ? "Ollama" : "Offline";
}

export default function App() {
  const lib = useLibrary();
  const [view, setView] = useState<View>({ name: benchSize(window.location.hash) ? "graph" : "library" });
  const [highlight, setHighlight] = useState<GraphHighlight | null>(null);
  const [askFocus, setAskFocus] = useState(0);
  // Views stay mounted while the source is open, so going back keeps their state.
  const [seen, setSeen] = useState<Set<Main>>(new Set(["library"]));
  const current: Main = view.name === "source" ? view.from : view.name;
  useEffect(() => setSeen((s) => (s.has(current) ? s : new Set(s).add(current))), [current]);

  // Keyboard: Ctrl/⌘-K asks, Esc closes the source panel.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
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
        terms: queryTerms(search.ran),
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
        </nav>
        <div className="sidebar-foot">
          <div className="project-name" title={lib.info?.dir}>
            <div className="eyebrow">Project</div>
            <div className="project-title">{lib.info?.name || "—"}</div>
          </div>
          <div className={`mode mode-${lib.mode}`} data-testid="mode-badge" title={lib.mode === "ollama" ? "Answers come from a local Ollama model." : "No model connected: Cairn works fully offline with its built-in engine."}>
            <span className="mode-dot" />
            {modeLabel(lib.mode)}
          </div>
          {lib.importing.running && <div className="foot-note">Importing…</div>}
        </div>
      </aside>

      <main className={`main${active === "graph" && view.name !== "source" ? " main-fill" : ""}`}>
        <div hidden={view.name !== "library"} className="pane">
          <LibraryView lib={lib} onOpen={openDoc} />
        </div>
        {seen.has("ask") && (
          <div hidden={view.name !== "ask"} className="pane">
            <AskView onOpenSource={openSource} onShowInGraph={showInGraph} focusKey={askFocus} />
          </div>
        )}
        {seen.has("mindmap") && (
          <div hidden={view.name !== "mindmap"} className="pane">
            <MindMapView docs={lib.docs} onOpenSource={openSource} />
          </div>
        )}
        {view.name === "graph" && <GraphView docs={lib.docs} onOpenSource={openSource} highlight={highlight} />}
        {view.name === "search" && <SearchView state={search} setState={setSearch} hasDocuments={lib.docs.length > 0} onOpen={openHit} />}
        {view.name === "source" && (
          <SourceView target={view.target} backLabel={BACK[view.from]} onBack={() => setView({ name: view.from })} />
        )}
      </main>

      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-card">
            <Icon name="drop" size={32} />
            <div className="drop-title">{canPickFiles ? "Drop to import" : "Dropping files works in the desktop app"}</div>
            <div className="subtle">{canPickFiles ? "PDF, Word, text and Markdown files, or whole folders" : "In the browser, use Import and give the files’ paths."}</div>
          </div>
        </div>
      )}
    </div>
  );
}
