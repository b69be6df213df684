import { useEffect, useState } from "react";
import { canPickFiles, type Document, type Hit } from "./api";
import { Icon, Logo } from "./components/ui";
import { count } from "./lib/format";
import { queryTerms } from "./lib/highlight";
import { useLibrary } from "./library";
import LibraryView from "./views/Library";
import SearchView, { emptySearch, type SearchState } from "./views/Search";
import SourceView, { type SourceTarget } from "./views/Source";

type View = { name: "library" | "search" } | { name: "source"; target: SourceTarget; from: "library" | "search" };

function modeLabel(mode: string): string {
  return mode === "ollama" ? "Ollama" : "Offline";
}

export default function App() {
  const lib = useLibrary();
  const [view, setView] = useState<View>({ name: "library" });
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

  const active = view.name === "source" ? view.from : view.name;

  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <Logo size={30} />
          <span>Cairn</span>
        </div>
        <nav className="nav" aria-label="Views">
          <button className={`nav-item${active === "library" ? " active" : ""}`} onClick={() => setView({ name: "library" })}>
            <Icon name="library" />
            <span>Library</span>
            <span className="nav-count tabular">{count(lib.docs.length)}</span>
          </button>
          <button className={`nav-item${active === "search" ? " active" : ""}`} onClick={() => setView({ name: "search" })}>
            <Icon name="search" />
            <span>Search</span>
          </button>
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

      <main className="main">
        {view.name === "library" && <LibraryView lib={lib} onOpen={openDoc} />}
        {view.name === "search" && <SearchView state={search} setState={setSearch} hasDocuments={lib.docs.length > 0} onOpen={openHit} />}
        {view.name === "source" && (
          <SourceView
            target={view.target}
            backLabel={view.from === "search" ? "Back to results" : "Back to library"}
            onBack={() => setView({ name: view.from })}
          />
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
