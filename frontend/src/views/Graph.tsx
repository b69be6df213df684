// The knowledge-graph explorer: sigma.js (WebGL) over a graphology graph.
// Filtering, search and highlighting go through sigma's reducers, so the
// graph itself is built once and 10k+ nodes stay fluid.
import { MultiDirectedGraph } from "graphology";
import forceAtlas2 from "graphology-layout-forceatlas2";
import FA2Layout from "graphology-layout-forceatlas2/worker";
import { useEffect, useMemo, useRef, useState } from "react";
import Sigma from "sigma";
import { EdgeLineProgram, NodePointProgram } from "sigma/rendering";
import { api, errorMessage, has, type Document, type Entity, type Graph, type Relation, type Source } from "../api";
import { Notice } from "../components/ui";
import { count, pageSpan, plainError } from "../lib/format";
import { mergeGraphs, nodeKeyOf, searchNodes, syntheticGraph, toGraphData, visibleNodes, type GraphData } from "../lib/kgraph";
import { benchSize } from "../lib/bench";
import type { GraphHighlight, OpenSource } from "./Ask";


type Selection = { kind: "node"; id: number } | { kind: "edge"; id: number } | null;

export default function GraphView({ docs, onOpenSource, highlight }: { docs: Document[]; onOpenSource: OpenSource; highlight: GraphHighlight | null }) {
  const bench = benchSize(window.location.hash);
  const available = bench > 0 || has("Graph");
  const [graph, setGraph] = useState<Graph | null>(null);
  const [error, setError] = useState("");
  const [hiddenTypes, setHiddenTypes] = useState<Set<string>>(new Set());
  const [doc, setDoc] = useState(0);
  const [query, setQuery] = useState("");
  const [sel, setSel] = useState<Selection>(null);
  const [layoutRunning, setLayoutRunning] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const gref = useRef<MultiDirectedGraph | null>(null);
  const state = useRef({ visible: new Set<string>(), focus: new Set<string>(), hlEdges: new Set<string>(), selected: "" });

  useEffect(() => {
    if (bench) {
      setGraph(syntheticGraph(bench));
      return;
    }
    if (!available) return;
    api.graph().then(setGraph, (e) => setError(errorMessage(e)));
  }, [bench, available]);

  const data: GraphData | null = useMemo(() => (graph ? toGraphData(graph) : null), [graph]);
  const entities = useMemo(() => new Map((graph?.entities ?? []).map((e) => [e.id, e])), [graph]);
  const relations = useMemo(() => new Map((graph?.relations ?? []).map((r) => [r.id, r])), [graph]);

  // Build the graphology graph and the renderer when the data changes.
  useEffect(() => {
    if (!data || !box.current) return;
    const g = new MultiDirectedGraph();
    for (const n of data.nodes) g.addNode(n.key, { label: n.label, x: n.x, y: n.y, size: n.size, color: n.color, type: "circle", etype: n.type });
    for (const e of data.edges) if (!g.hasEdge(e.key)) g.addDirectedEdgeWithKey(e.key, e.source, e.target, { label: e.label, size: e.size, color: e.color });
    gref.current = g;
    const small = data.nodes.length <= 2000;
    // Large graphs are drawn with sigma's non-instanced programs: nodes as
    // points, edges as one-pixel lines (no arrowheads, which are specks at
    // that density anyway). Instanced drawing (circles, arrows) costs a
    // software WebGL — SwiftShader, llvmpipe: a desktop without GPU
    // acceleration — per instance, hidden ones included: at 10k nodes and
    // 15k edges 1.3 s per frame against 0.22 s (bench-graph.mjs).
    const large = !small || data.edges.length > 5000;
    const r = new Sigma(g, box.current, {
      renderEdgeLabels: small && data.edges.length <= 600,
      // Large graphs: no edge picking layer, no per-frame z-sorting, and
      // edges hidden while the camera moves (sigma's own large-graph settings).
      enableEdgeEvents: data.edges.length <= 5000,
      hideEdgesOnMove: data.edges.length > 5000,
      hideLabelsOnMove: data.nodes.length > 5000,
      labelRenderedSizeThreshold: small ? 6 : 10,
      labelFont: "Inter Variable, Inter, system-ui, sans-serif",
      labelSize: 12,
      labelColor: { color: "#1e2326" },
      edgeLabelSize: 11,
      defaultEdgeType: large ? "line" : "arrow",
      edgeProgramClasses: { line: EdgeLineProgram },
      nodeProgramClasses: large ? { circle: NodePointProgram } : {},
      zIndex: small,
      nodeReducer: (key, attrs) => {
        const s = state.current;
        if (!s.visible.has(key)) return { ...attrs, hidden: true };
        if (s.focus.size && !s.focus.has(key)) return { ...attrs, color: "#dedad2", label: "", zIndex: 0 };
        if (s.focus.has(key) || key === s.selected) return { ...attrs, highlighted: true, zIndex: 2, forceLabel: true };
        return attrs;
      },
      edgeReducer: (key, attrs) => {
        const s = state.current;
        const a = g.source(key); // (not extremities(): no array per edge per refresh)
        const b = g.target(key);
        if (!s.visible.has(a) || !s.visible.has(b)) return { ...attrs, hidden: true };
        if (s.hlEdges.has(key)) return { ...attrs, color: "#2b5866", size: 3, zIndex: 2, forceLabel: true };
        if (s.focus.size) return s.focus.has(a) && s.focus.has(b) ? { ...attrs, color: "#7fa3ad" } : { ...attrs, color: "#ece9e3" };
        return attrs;
      },
    });
    r.on("clickNode", ({ node }) => setSel({ kind: "node", id: g.getNodeAttribute(node, "id") ?? Number(node.slice(1)) }));
    r.on("clickEdge", ({ edge }) => setSel({ kind: "edge", id: Number(edge.slice(1)) }));
    r.on("clickStage", () => setSel(null));
    sigma.current = r;
    (window as unknown as Record<string, unknown>).__cairnGraph = { nodes: g.order, edges: g.size, sigma: r };

    // A short force layout in a worker: the spiral start is already readable.
    const fa2 = new FA2Layout(g, { settings: { ...forceAtlas2.inferSettings(g), barnesHutOptimize: g.order > 500, slowDown: 5 } });
    fa2.start();
    setLayoutRunning(true);
    const t = setTimeout(() => {
      fa2.stop();
      setLayoutRunning(false);
    }, Math.min(6000, 1500 + g.order / 4));
    return () => {
      clearTimeout(t);
      fa2.kill();
      r.kill();
      sigma.current = null;
    };
  }, [data]);

  // Filters, search, selection and path highlight → reducer state.
  const matches = useMemo(() => (data ? searchNodes(data, query) : []), [data, query]);
  useEffect(() => {
    if (!data) return;
    const s = state.current;
    s.visible = visibleNodes(data, { hiddenTypes, doc });
    s.focus = new Set();
    s.hlEdges = new Set();
    s.selected = sel?.kind === "node" ? nodeKeyOf(sel.id) : "";
    const g = gref.current;
    if (highlight && g) {
      const names = new Set(highlight.names.map((n) => n.trim().toLowerCase()));
      for (const n of data.nodes) if (names.has(n.label.trim().toLowerCase())) s.focus.add(n.key);
      for (const id of highlight.relations) if (g.hasEdge(`r${id}`)) s.hlEdges.add(`r${id}`);
      // Steps whose relation id is unknown: edges between consecutive highlighted nodes.
      const chain = highlight.names.map((n) => data.nodes.find((x) => x.label.trim().toLowerCase() === n.trim().toLowerCase())?.key).filter(Boolean) as string[];
      for (let i = 0; i + 1 < chain.length; i++) for (const e of g.edges(chain[i], chain[i + 1])) s.hlEdges.add(e);
    }
    if (sel?.kind === "node" && g?.hasNode(s.selected)) {
      s.focus.add(s.selected);
      g.forEachNeighbor(s.selected, (n) => s.focus.add(n));
    }
    if (query && matches.length) matches.forEach((m) => s.focus.add(m.key));
    sigma.current?.refresh();
  }, [data, hiddenTypes, doc, sel, highlight, query, matches]);

  // Centre on the highlighted path when it arrives.
  useEffect(() => {
    const r = sigma.current;
    const g = gref.current;
    if (!r || !g || !highlight || layoutRunning) return;
    const keys = [...state.current.focus].filter((k) => g.hasNode(k));
    if (!keys.length) return;
    const pts = keys.map((k) => r.graphToViewport(g.getNodeAttributes(k) as { x: number; y: number }));
    const cx = pts.reduce((a, p) => a + p.x, 0) / pts.length;
    const cy = pts.reduce((a, p) => a + p.y, 0) / pts.length;
    const c = r.viewportToFramedGraph({ x: cx, y: cy });
    r.getCamera().animate({ x: c.x, y: c.y, ratio: 0.5 }, { duration: 400 });
  }, [highlight, layoutRunning, data]);

  const focusNode = (id: number) => {
    setSel({ kind: "node", id });
    const r = sigma.current;
    const g = gref.current;
    if (!r || !g || !g.hasNode(nodeKeyOf(id))) return;
    const p = r.graphToViewport(g.getNodeAttributes(nodeKeyOf(id)) as { x: number; y: number });
    const c = r.viewportToFramedGraph(p);
    r.getCamera().animate({ x: c.x, y: c.y, ratio: 0.35 }, { duration: 350 });
  };

  const expand = async (id: number) => {
    try {
      const n = await api.neighbourhood(id, 1, 300);
      setGraph((g) => (g ? mergeGraphs(g, n) : n));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const docTitle = (id: number) => docs.find((d) => d.id === id)?.title ?? `Document ${id}`;

  return (
    <div className="graph-layout" data-testid="graph">
      <div className="graph-side">
        <div>
          <div className="eyebrow">Knowledge graph</div>
          <h1 className="graph-title">{bench ? `Generated graph (${count(bench)} nodes)` : "Entities and relations"}</h1>
          {data && (
            <p className="subtle" data-testid="graph-counts">
              {count(data.nodes.length)} entities · {count(data.edges.length)} relations{layoutRunning ? " · arranging…" : ""}
            </p>
          )}
        </div>
        {!available && <Notice tone="info">The knowledge graph is not part of this build of Cairn yet.</Notice>}
        {error && <Notice tone="bad">{plainError(error)}</Notice>}
        {data && (
          <>
            <input className="input" type="search" placeholder="Find an entity…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="graph-search" />
            {query && (
              <ul className="graph-hits">
                {matches.map((m) => (
                  <li key={m.key}>
                    <button className="link" onClick={() => focusNode(m.id)}>
                      <span className="dot" style={{ background: m.color }} /> {m.label}
                    </button>
                  </li>
                ))}
                {matches.length === 0 && <li className="subtle">No entity by that name.</li>}
              </ul>
            )}
            <div className="filter-block">
              <div className="eyebrow">Types</div>
              <ul className="legend" data-testid="graph-types">
                {data.types.map((t) => (
                  <li key={t.type}>
                    <label>
                      <input
                        type="checkbox"
                        checked={!hiddenTypes.has(t.type)}
                        onChange={() =>
                          setHiddenTypes((h) => {
                            const n = new Set(h);
                            if (n.has(t.type)) n.delete(t.type);
                            else n.add(t.type);
                            return n;
                          })
                        }
                      />
                      <span className="dot" style={{ background: t.color }} />
                      {t.type}
                      <span className="subtle tabular">{count(t.count)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
            <div className="filter-block">
              <div className="eyebrow">Document</div>
              <select value={doc} onChange={(e) => setDoc(Number(e.target.value))} data-testid="graph-doc" aria-label="Only entities of document">
                <option value={0}>All documents</option>
                {data.docs.map((d) => (
                  <option key={d} value={d}>
                    {docTitle(d)}
                  </option>
                ))}
              </select>
            </div>
            {highlight && <div className="subtle">Showing the answer’s path: {highlight.names.join(" → ")}</div>}
          </>
        )}
        {sel?.kind === "node" && entities.get(sel.id) && <EntityCard e={entities.get(sel.id)!} rels={[...relations.values()].filter((r) => r.subject === sel.id || r.object === sel.id)} names={entities} onOpenSource={onOpenSource} onExpand={has("Neighbourhood") ? () => expand(sel.id) : undefined} docTitle={docTitle} />}
        {sel?.kind === "edge" && relations.get(sel.id) && <RelationCard r={relations.get(sel.id)!} names={entities} onOpenSource={onOpenSource} docTitle={docTitle} />}
      </div>
      <div className="graph-canvas card" ref={box} data-testid="graph-canvas">
        {data && data.nodes.length === 0 && <div className="canvas-note subtle">The graph is empty: it is built when the project is indexed.</div>}
      </div>
    </div>
  );
}

function SourceList({ sources, onOpenSource, docTitle, label }: { sources: Source[]; onOpenSource: OpenSource; docTitle: (id: number) => string; label: string }) {
  if (!sources.length) return null;
  return (
    <ul className="source-list">
      {sources.slice(0, 12).map((s, i) => (
        <li key={i}>
          <button className="link" onClick={() => onOpenSource(s, { label })} data-testid="graph-source">
            {docTitle(s.doc_id)} · {pageSpan(s.page_start, s.page_end)}
          </button>
        </li>
      ))}
      {sources.length > 12 && <li className="subtle">and {sources.length - 12} more</li>}
    </ul>
  );
}

function EntityCard({ e, rels, names, onOpenSource, onExpand, docTitle }: { e: Entity; rels: Relation[]; names: Map<number, Entity>; onOpenSource: OpenSource; onExpand?: () => void; docTitle: (id: number) => string }) {
  const nm = (id: number, fallback?: string) => names.get(id)?.name ?? fallback ?? `#${id}`;
  return (
    <div className="card detail-card" data-testid="entity-card">
      <div className="eyebrow">{e.type || "entity"}{e.semantic_type ? ` · ${e.semantic_type}` : ""}</div>
      <h2>{e.name}</h2>
      {e.description && <p>{e.description}</p>}
      {(e.aliases?.length ?? 0) > 0 && <p className="subtle">Also: {e.aliases!.join(", ")}</p>}
      {onExpand && (
        <button className="btn btn-small" onClick={onExpand}>
          Expand neighbourhood
        </button>
      )}
      {rels.length > 0 && (
        <>
          <div className="eyebrow">Relations</div>
          <ul className="rel-list">
            {rels.slice(0, 20).map((r) => (
              <li key={r.id}>
                <button className="link" onClick={() => r.sources?.[0] && onOpenSource(r.sources[0], { label: r.predicate })} disabled={!r.sources?.length}>
                  {nm(r.subject, r.subject_name)} <em>{r.predicate}</em> {nm(r.object, r.object_name)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="eyebrow">Mentioned in</div>
      <SourceList sources={e.mentions ?? []} onOpenSource={onOpenSource} docTitle={docTitle} label={e.name} />
    </div>
  );
}

function RelationCard({ r, names, onOpenSource, docTitle }: { r: Relation; names: Map<number, Entity>; onOpenSource: OpenSource; docTitle: (id: number) => string }) {
  return (
    <div className="card detail-card" data-testid="relation-card">
      <div className="eyebrow">Relation · confidence {r.confidence.toFixed(2)}</div>
      <h2>
        {names.get(r.subject)?.name ?? r.subject_name} <em>{r.predicate}</em> {names.get(r.object)?.name ?? r.object_name}
      </h2>
      {r.statement && <blockquote>{r.statement}</blockquote>}
      <div className="eyebrow">Stated in</div>
      <SourceList sources={r.sources ?? []} onOpenSource={onOpenSource} docTitle={docTitle} label={r.predicate} />
    </div>
  );
}
