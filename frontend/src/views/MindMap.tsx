import { useEffect, useMemo, useRef, useState } from "react";
import { api, errorMessage, has, type Document, type MindMap, type Source } from "../api";
import { Notice } from "../components/ui";
import { pageSpan, plainError } from "../lib/format";
import { filterDocs } from "../lib/docpick";
import { buildTree, exportName, fitView, initialCollapsed, layoutTree, searchTree, type LaidNode, type TreeNode } from "../lib/mindtree";
import type { OpenSource } from "./Ask";
import { download, saveText } from "../lib/save";

/** The drawn SVG as a standalone file (styles inlined from the page). */
function svgText(svg: SVGSVGElement, w: number, h: number): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(w));
  clone.setAttribute("height", String(h));
  clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
  clone.querySelector("g.viewport")?.removeAttribute("transform");
  const style = document.createElementNS("http://www.w3.org/2000/svg", "style");
  style.textContent = `text{font:12.5px Inter,system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;fill:#1e2326}.mlink{fill:none;stroke:#cfc9bd;stroke-width:1.4}.mnode rect{fill:#fff;stroke:#d3cfc6}.mnode.k-topic rect{fill:#2b5866;stroke:#2b5866}.mnode.k-topic text,.mnode.k-root text{fill:#fff;font-weight:600}.mnode.k-root rect{fill:#24414a}.mnode.k-route rect{fill:#e4eef0;stroke:#bcd3d8}.mnode.k-fact rect{fill:#fff}`;
  clone.prepend(style);
  return new XMLSerializer().serializeToString(clone);
}

export default function MindMapView({ docs, onOpenSource }: { docs: Document[]; onOpenSource: OpenSource }) {
  const ready = docs.filter((d) => d.status === "ok" || d.status === "needs_ocr");
  const available = has("MindMap");
  const [which, setWhich] = useState<number>(ready[0]?.id ?? 0); // 0: fused
  const [map, setMap] = useState<MindMap | null>(null);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(false);
  // The folded branches, with the tree they were set for: a new map is
  // fitted only once its initial folding is laid out (the unfolded layout
  // of a large document is far taller, and fitting that one left the
  // canvas empty until "Reset view").
  const [fold, setFold] = useState<{ tree: TreeNode | null; set: Set<string> }>({ tree: null, set: new Set() });
  const collapsed = fold.set;
  const setCollapsed = (f: (c: Set<string>) => Set<string>) => setFold((o) => ({ tree: o.tree, set: f(o.set) }));
  const [query, setQuery] = useState("");
  const [docQuery, setDocQuery] = useState("");
  // The picker's documents: those matching the search, the one shown kept.
  const picked = useMemo(() => {
    const f = filterDocs(ready, docQuery);
    const cur = ready.find((d) => d.id === which);
    return cur && !f.includes(cur) ? [cur, ...f] : f;
  }, [ready.map((d) => d.id).join(","), docQuery, which]);
  // A search that leaves one document opens its map.
  useEffect(() => {
    const f = filterDocs(ready, docQuery);
    if (docQuery.trim() && f.length === 1 && f[0].id !== which) setWhich(f[0].id);
  }, [docQuery]);
  const [view, setView] = useState({ x: 0, y: 0, k: 1 });
  const svg = useRef<SVGSVGElement>(null);
  const drag = useRef<{ x: number; y: number; vx: number; vy: number } | null>(null);

  useEffect(() => {
    if (!available) return;
    let live = true;
    setLoading(true);
    setError("");
    (which ? api.mindMap(which) : api.fusedMindMap()).then(
      (m) => live && setMap(m),
      (e) => live && (setError(errorMessage(e)), setMap(null)),
    ).finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [which, available]);

  const title = which ? (docs.find((d) => d.id === which)?.title ?? `Document ${which}`) : "All documents";
  const tree = useMemo(() => buildTree(map, title, (id) => docs.find((d) => d.id === id)?.title ?? `Document ${id}`), [map, title, docs]);
  useEffect(() => {
    setFold({ tree, set: initialCollapsed(tree) });
    setView({ x: 0, y: 0, k: 1 });
  }, [tree]);
  // Fit a map taller or wider than the canvas (down to half size), once per map.
  const fitted = useRef<TreeNode | null>(null);
  const found = useMemo(() => searchTree(tree, query), [tree, query]);
  const effective = useMemo(() => {
    if (!found.ancestors.size) return collapsed;
    const c = new Set(collapsed);
    found.ancestors.forEach((id) => c.delete(id));
    return c;
  }, [collapsed, found]);
  const layout = useMemo(() => layoutTree(tree, effective, found.matches), [tree, effective, found]);
  const fit = () => {
    const r = svg.current?.getBoundingClientRect();
    if (r && r.width && r.height) setView(fitView(layout, r.width, r.height));
  };
  useEffect(() => {
    if (fitted.current === tree || fold.tree !== tree || !svg.current || !layout.nodes.length) return;
    const r = svg.current.getBoundingClientRect();
    if (!r.width || !r.height) return;
    fitted.current = tree;
    setView(fitView(layout, r.width, r.height));
  }, [tree, fold, layout]);

  const toggle = (t: TreeNode) =>
    setCollapsed((c) => {
      const n = new Set(c);
      if (n.has(t.id)) n.delete(t.id);
      else n.add(t.id);
      return n;
    });

  const activate = (n: LaidNode) => {
    const node = n.t.node;
    if (n.t.kind === "fact" && node?.chunk_id) {
      const s: Source = { doc_id: node.doc_id, chunk_id: node.chunk_id, page_start: node.page_start ?? 0, page_end: node.page_end ?? 0, char_start: node.char_start ?? 0, char_end: node.char_end ?? 0 };
      onOpenSource(s, { label: n.t.label });
    } else if (n.t.children.length) toggle(n.t);
  };

  const onWheel = (e: React.WheelEvent) => {
    const rect = svg.current!.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    setView((v) => {
      const k = Math.min(3, Math.max(0.25, v.k * Math.exp(-e.deltaY * 0.0015)));
      return { k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k };
    });
  };

  const exportAs = async (kind: "md" | "opml" | "svg" | "png") => {
    // Markdown and OPML are written by the backend (the CLI's mindmap
    // command prints the same).
    if (kind === "md" || kind === "opml") {
      const text = await api.exportMindMap(which, kind).catch((e) => (setError(errorMessage(e)), null));
      if (text !== null) await saveText(exportName(title, kind), text, kind === "md" ? "text/markdown" : "text/x-opml").catch((e) => setError(errorMessage(e)));
      return;
    }
    if (!svg.current) return;
    const text = svgText(svg.current, layout.width, layout.height);
    if (kind === "svg") return void (await saveText(exportName(title, "svg"), text, "image/svg+xml").catch((e) => setError(errorMessage(e))));
    const img = new Image();
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    await img.decode();
    const c = document.createElement("canvas");
    c.width = layout.width * 2;
    c.height = layout.height * 2;
    const ctx = c.getContext("2d")!;
    ctx.fillStyle = "#f7f6f3";
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    c.toBlob((b) => b && download(exportName(title, "png"), b), "image/png");
  };

  return (
    <div className="view view-wide" data-testid="mindmap">
      <header className="view-head">
        <div>
          <div className="eyebrow">Mind map</div>
          <h1>{title}</h1>
          <p className="subtle">Topics, routes and facts; click a fact to open its page, a branch to fold it.</p>
        </div>
        <div className="head-actions">
          {ready.length > 8 && (
            <input className="input" type="search" placeholder={`Find one of ${ready.length} documents…`} value={docQuery} onChange={(e) => setDocQuery(e.target.value)} aria-label="Find a document" data-testid="mindmap-doc-search" />
          )}
          <select value={which} onChange={(e) => setWhich(Number(e.target.value))} aria-label="Mind map of" data-testid="mindmap-doc">
            {has("FusedMindMap") && <option value={0}>All documents (fused)</option>}
            {picked.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title || d.file_name}
              </option>
            ))}
          </select>
        </div>
      </header>
      {!available && <Notice tone="info">Mind maps are not part of this build of Cairn yet.</Notice>}
      {error && <Notice tone="bad">{plainError(error)}</Notice>}
      {available && (
        <div className="toolbar">
          <input className="input" type="search" placeholder="Find in the map…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="mindmap-search" />
          {query && <span className="subtle">{found.matches.size} found</span>}
          <span className="spacer" />
          <button className="btn btn-small" onClick={() => setCollapsed(() => new Set())}>Expand all</button>
          <button className="btn btn-small" onClick={() => setCollapsed(() => initialCollapsed(tree, 0))}>Collapse</button>
          <button className="btn btn-small" onClick={fit}>Reset view</button>
          <span className="sep" />
          <span className="subtle">Export</span>
          {(["png", "svg", "md", "opml"] as const).map((k) => (
            <button key={k} className="btn btn-small" onClick={() => exportAs(k)} data-testid={`export-${k}`}>
              {k === "md" ? "Markdown" : k.toUpperCase()}
            </button>
          ))}
        </div>
      )}
      {available && (
        <div className="canvas-card card">
          {loading && <div className="canvas-note subtle">Loading the mind map…</div>}
          {!loading && map && !(map.nodes?.length ?? 0) && <div className="canvas-note subtle">No mind map yet: it is drawn when the project is indexed.</div>}
          <svg
            ref={svg}
            className="mindmap-svg"
            onWheel={onWheel}
            onPointerDown={(e) => {
              if ((e.target as Element).closest(".mnode")) return;
              drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
              (e.currentTarget as Element).setPointerCapture(e.pointerId);
            }}
            onPointerMove={(e) => {
              const d = drag.current;
              if (d) setView((v) => ({ ...v, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y }));
            }}
            onPointerUp={() => (drag.current = null)}
          >
            <g className="viewport" transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
              {layout.links.map((l, i) => {
                const x1 = l.from.x + l.from.width;
                const x2 = l.to.x;
                const mx = (x1 + x2) / 2;
                return <path key={i} className="mlink" d={`M${x1} ${l.from.y} C${mx} ${l.from.y}, ${mx} ${l.to.y}, ${x2} ${l.to.y}`} />;
              })}
              {layout.nodes.map((n) => {
                const maxChars = Math.floor((n.width - 20) / 7);
                const label = n.t.label.length > maxChars ? n.t.label.slice(0, Math.max(1, maxChars - 1)) + "…" : n.t.label;
                const fact = n.t.kind === "fact";
                return (
                  <g
                    key={n.t.id}
                    className={`mnode k-${n.t.kind}${n.match ? " match" : ""}${fact && n.t.node?.chunk_id ? " clickable" : ""}`}
                    transform={`translate(${n.x} ${n.y})`}
                    onClick={() => activate(n)}
                    role="button"
                    tabIndex={0}
                    onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), activate(n))}
                    data-testid={fact ? "mind-fact" : "mind-branch"}
                    data-page={n.t.node?.page_start ?? ""}
                  >
                    <title>{n.t.label + (fact && n.t.node ? ` — ${pageSpan(n.t.node.page_start, n.t.node.page_end)}` : "") + (n.t.shared ? ` — also in ${(n.t.shared.doc_ids?.length ?? 1) - 1} other document(s)` : "")}</title>
                    <rect x={0} y={-11} width={n.width} height={22} rx={fact ? 5 : 11} />
                    <text x={10} y={4}>
                      {label}
                    </text>
                    {n.collapsed && (
                      <g transform={`translate(${n.width + 6} 0)`} className="badge">
                        <circle r={9} />
                        <text y={4} textAnchor="middle">
                          {n.hidden > 99 ? "99+" : n.hidden}
                        </text>
                      </g>
                    )}
                    {n.t.shared && <circle className="shared-dot" cx={n.width - 6} cy={-11} r={4} />}
                  </g>
                );
              })}
            </g>
          </svg>
        </div>
      )}
    </div>
  );
}
