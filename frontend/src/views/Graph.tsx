// The knowledge-graph explorer: sigma.js (WebGL) over a graphology graph.
// Filtering, search and highlighting go through sigma's reducers, so the
// graph itself is built once and 10k+ nodes stay fluid.
import { MultiDirectedGraph } from "graphology";
import forceAtlas2 from "graphology-layout-forceatlas2";
import FA2Layout from "graphology-layout-forceatlas2/worker";
import { useEffect, useMemo, useRef, useState } from "react";
import Sigma from "sigma";
import { EdgeLineProgram, NodePointProgram } from "sigma/rendering";
import { api, errorMessage, has, type Document, type Entity, type GraphHit, type GraphScope, type GraphView as View, type Relation, type Source } from "../api";
import { ScopeChip } from "../components/ScopeChip";
import { Notice } from "../components/ui";
import { count, pageSpan, plainError } from "../lib/format";
import { allowedTypes, fromView, type NodeMeta, layoutByGroup, mergeViews, nodeKeyOf, searchNodes, syntheticGraph, toGraphData, visibleNodes, type GraphData, type ViewState } from "../lib/kgraph";
import type { Scope } from "../lib/scope";
import { benchSize } from "../lib/bench";
import type { GraphHighlight, OpenSource } from "./Ask";


type Selection = { kind: "node"; id: number } | { kind: "edge"; id: number } | null;

/** Entities an overview shows (the backend allows at most 200). */
const OVERVIEW = 150;
/** Neighbours a click adds; the card's button asks for more. */
const NEIGHBOURS = 25;

export default function GraphView({ docs, onOpenSource, highlight, scope, onClearScope }: { docs: Document[]; onOpenSource: OpenSource; highlight: GraphHighlight | null; scope?: Scope | null; onClearScope?: () => void }) {
  const bench = benchSize(window.location.hash);
  const available = bench > 0 || has("GraphOverview");
  const [vs, setVs] = useState<ViewState | null>(null);
  const [info, setInfo] = useState<Pick<View, "types" | "docs" | "total" | "total_relations" | "stated"> | null>(null);
  const [error, setError] = useState("");
  const [hiddenTypes, setHiddenTypes] = useState<Set<string>>(new Set());
  const [doc, setDoc] = useState(0);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<GraphHit[]>([]);
  const [sel, setSel] = useState<Selection>(null);
  const [pending, setPending] = useState(0); // a node to focus once drawn
  const [layoutRunning, setLayoutRunning] = useState(false);
  const [loading, setLoading] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const gref = useRef<MultiDirectedGraph | null>(null);
  const opened = useRef({ t0: 0, ms: 0 });
  const state = useRef({ visible: new Set<string>(), focus: new Set<string>(), hlEdges: new Set<string>(), selected: "" });

  // The scope: one document chosen here, else the Library's selection, else all.
  const scopeIds = scope?.ids ?? [];
  const allTypes = useMemo(() => (info?.types ?? []).map((t) => t.type), [info]);
  const reqDocs = (doc ? [doc] : scopeIds).join(",");
  const reqTypes = allowedTypes(allTypes, hiddenTypes).join("\u0001");
  // (keyed by value: a new reply's type list must not ask again)
  const req: GraphScope = useMemo(() => ({ docs: reqDocs ? reqDocs.split(",").map(Number) : [], types: reqTypes ? reqTypes.split("\u0001") : [] }), [reqDocs, reqTypes]);
  const focusNames = highlight?.names ?? [];

  useEffect(() => {
    if (bench) {
      const g = syntheticGraph(bench);
      setVs({ graph: g, meta: new Map(), groups: new Map() });
      setInfo({ types: [], docs: [], total: g.entities?.length ?? 0, total_relations: g.relations?.length ?? 0, stated: 0 });
      return;
    }
    if (!available) return;
    let live = true;
    setLoading(true);
    opened.current.t0 = performance.now();
    api.graphOverview(req, OVERVIEW, focusNames).then(
      (v) => {
        if (!live) return;
        opened.current.ms = performance.now() - opened.current.t0;
        setVs(fromView(v));
        // (the type and document lists stay those of the wider scope while one is filtered)
        setInfo((old) => ({ types: req.types.length && old ? old.types : v.types ?? [], docs: doc && old ? old.docs : v.docs ?? [], total: v.total, total_relations: v.total_relations, stated: v.stated }));
        setLoading(false);
      },
      (e) => {
        if (!live) return;
        setError(errorMessage(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [bench, available, req, focusNames.join("\u0001")]);

  // Search the whole scope by name (not only what is drawn).
  useEffect(() => {
    const q = query.trim();
    if (!q || bench || !available) {
      setHits([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => api.graphSearch(q, req, 12).then((h) => live && setHits(h ?? []), (e) => live && setError(errorMessage(e))), 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [query, req, bench, available]);

  const graph = vs?.graph ?? null;
  const data: GraphData | null = useMemo(() => {
    if (!vs) return null;
    const d = toGraphData(vs.graph);
    return vs.meta.size ? layoutByGroup(d, vs.meta) : d;
  }, [vs]);
  const entities = useMemo(() => new Map((graph?.entities ?? []).map((e) => [e.id, e])), [graph]);
  const relations = useMemo(() => new Map((graph?.relations ?? []).map((r) => [r.id, r])), [graph]);

  // Build the graphology graph and the renderer when the data changes.
  useEffect(() => {
    if (!data || !box.current) return;
    // Nodes already drawn keep their place (an expansion adds to the view);
    // new ones start beside a drawn neighbour.
    const prev = gref.current;
    const at = (k: string) => (prev?.hasNode(k) ? (prev.getNodeAttributes(k) as { x: number; y: number }) : null);
    const g = new MultiDirectedGraph();
    for (const n of data.nodes) g.addNode(n.key, { label: n.label, x: n.x, y: n.y, size: n.size, color: n.color, type: "circle", etype: n.type, id: n.id });
    for (const e of data.edges) if (!g.hasEdge(e.key)) g.addDirectedEdgeWithKey(e.key, e.source, e.target, { label: e.label, size: e.size, color: e.color });
    if (prev) {
      let k = 0;
      g.forEachNode((key) => {
        const p = at(key);
        if (p) {
          g.mergeNodeAttributes(key, { x: p.x, y: p.y });
          return;
        }
        const near = g.neighbors(key).map(at).find(Boolean);
        if (near) {
          k++;
          g.mergeNodeAttributes(key, { x: near.x + 18 * Math.cos(k * 2.4), y: near.y + 18 * Math.sin(k * 2.4) });
        }
      });
    }
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
      labelRenderedSizeThreshold: data.nodes.length <= 400 ? 3 : small ? 6 : 10,
      labelDensity: data.nodes.length <= 400 ? 1 : 0.07,
      labelGridCellSize: data.nodes.length <= 400 ? 70 : 60,
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
    r.on("clickNode", ({ node }) => {
      const id = g.getNodeAttribute(node, "id") ?? Number(node.slice(1));
      setSel({ kind: "node", id });
      if (!bench) void expand(id, NEIGHBOURS);
    });
    r.on("clickEdge", ({ edge }) => setSel({ kind: "edge", id: Number(edge.slice(1)) }));
    r.on("clickStage", () => setSel(null));
    sigma.current = r;
    (window as unknown as Record<string, unknown>).__cairnGraph = { nodes: g.order, edges: g.size, sigma: r, openMs: Math.round(opened.current.ms) };

    // A short force layout in a worker: the spiral start is already readable.
    // Views of a few hundred nodes: lin-log mode pulls groups apart.
    const few = g.order <= 400 && !bench;
    const fa2 = new FA2Layout(g, { settings: { ...forceAtlas2.inferSettings(g), barnesHutOptimize: g.order > 500, slowDown: 5, ...(few ? { linLogMode: true, scalingRatio: 4, gravity: 0.5, adjustSizes: true } : {}) } });
    fa2.start();
    setLayoutRunning(true);
    const t = setTimeout(() => {
      fa2.stop();
      setLayoutRunning(false);
    }, prev ? 900 : Math.min(6000, 1500 + g.order / 4));
    return () => {
      clearTimeout(t);
      fa2.kill();
      r.kill();
      sigma.current = null;
    };
  }, [data]);

  // Filters, search, selection and path highlight → reducer state.
  const matches = useMemo(() => (data && bench ? searchNodes(data, query) : []), [data, query, bench]);
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
    if (query) for (const h of hits) if (g?.hasNode(nodeKeyOf(h.id))) s.focus.add(nodeKeyOf(h.id));
    sigma.current?.refresh();
  }, [data, hiddenTypes, doc, sel, highlight, query, matches, hits]);

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

  // A node's neighbours in the scope, added to what is drawn.
  const expand = async (id: number, limit: number) => {
    try {
      const n = await api.graphNeighbours(id, req, limit);
      setVs((v) => (v ? mergeViews(v, fromView(n)) : fromView(n)));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  // A search hit: focus it, fetching it with its neighbours when it is not drawn.
  const openHit = async (id: number) => {
    if (!gref.current?.hasNode(nodeKeyOf(id))) await expand(id, NEIGHBOURS);
    setSel({ kind: "node", id });
    setPending(id);
  };
  useEffect(() => {
    if (pending && gref.current?.hasNode(nodeKeyOf(pending))) {
      focusNode(pending);
      setPending(0);
    }
  }, [pending, data]);

  const docTitle = (id: number) => docs.find((d) => d.id === id)?.title ?? `Document ${id}`;
  const toggleType = (t: string) =>
    setHiddenTypes((h) => {
      const n = new Set(h);
      if (n.has(t)) n.delete(t);
      else n.add(t);
      return n;
    });
  const groupsDrawn = useMemo(() => {
    if (!vs) return [];
    const drawn = new Map<number, number>();
    for (const m of vs.meta.values()) drawn.set(m.group, (drawn.get(m.group) ?? 0) + 1);
    return [...drawn.entries()]
      .map(([id, n]) => ({ id, n, name: vs.groups.get(id)?.name ?? entities.get(id)?.name ?? `#${id}`, size: vs.groups.get(id)?.size ?? n }))
      .sort((a, b) => b.size - a.size)
      .slice(0, 8);
  }, [vs, entities]);
  const selMeta = sel?.kind === "node" ? vs?.meta.get(sel.id) : undefined;

  return (
    <div className="graph-layout" data-testid="graph">
      <div className="graph-side">
        <div>
          <div className="eyebrow">Knowledge graph</div>
          <h1 className="graph-title">{bench ? `Generated graph (${count(bench)} nodes)` : "Entities and relations"}</h1>
          {scope && scope.ids.length > 0 && !bench && <ScopeChip scope={scope} onClear={onClearScope} verb="Showing" />}
          {data && info && (
            <p className="subtle" data-testid="graph-counts">
              {bench ? `${count(data.nodes.length)} entities · ${count(data.edges.length)} relations` : `the ${count(data.nodes.length)} most central of ${count(info.total)} entities · ${count(data.edges.length)} of ${count(info.total_relations)} relations (${count(info.stated)} stated)`}
              {layoutRunning ? " · arranging…" : ""}
              {loading ? " · loading…" : ""}
            </p>
          )}
        </div>
        {!available && <Notice tone="info">The knowledge graph is not part of this build of Cairn yet.</Notice>}
        {error && <Notice tone="bad">{plainError(error)}</Notice>}
        {data && (
          <>
            <input className="input" type="search" placeholder="Find an entity…" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="graph-search" />
            {query && (
              <ul className="graph-hits" data-testid="graph-hits">
                {bench
                  ? matches.map((m) => (
                      <li key={m.key}>
                        <button className="link" onClick={() => focusNode(m.id)}>
                          <span className="dot" style={{ background: m.color }} /> {m.label}
                        </button>
                      </li>
                    ))
                  : hits.map((h) => (
                      <li key={h.id}>
                        <button className="link" onClick={() => void openHit(h.id)} title={`${h.type} · rank ${count(h.rank)} · ${count(h.mentions)} mentions`}>
                          <span className="dot" style={{ background: data.types.find((t) => t.type === h.type)?.color ?? "#55606a" }} /> {h.name}
                          <span className="subtle"> · {h.type}</span>
                        </button>
                      </li>
                    ))}
                {(bench ? matches : hits).length === 0 && <li className="subtle">No entity by that name.</li>}
              </ul>
            )}
            {groupsDrawn.length > 0 && (
              <div className="filter-block">
                <div className="eyebrow">Groups</div>
                <ul className="legend" data-testid="graph-groups">
                  {groupsDrawn.map((g) => (
                    <li key={g.id}>
                      <button className="link" onClick={() => focusNode(g.id)} title={`${count(g.size)} entities in this group; ${count(g.n)} drawn`}>
                        {g.name}
                      </button>
                      <span className="subtle tabular"> {count(g.size)}</span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div className="filter-block">
              <div className="eyebrow">Types</div>
              <ul className="legend" data-testid="graph-types">
                {(bench ? data.types.map((t) => ({ type: t.type, n: t.count })) : info?.types ?? []).map((t) => (
                  <li key={t.type} data-type={t.type}>
                    <label>
                      <input type="checkbox" checked={!hiddenTypes.has(t.type)} onChange={() => toggleType(t.type)} />
                      <span className="dot" style={{ background: data.types.find((x) => x.type === t.type)?.color ?? "#c9c4ba" }} />
                      {t.type}
                      <span className="subtle tabular">{count(t.n)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
            <div className="filter-block">
              <div className="eyebrow">Document</div>
              <select value={doc} onChange={(e) => setDoc(Number(e.target.value))} data-testid="graph-doc" aria-label="Only entities of document">
                <option value={0}>{scopeIds.length ? `The ${count(scopeIds.length)} chosen documents` : "All documents"}</option>
                {(bench ? data.docs : (info?.docs ?? []).map((d) => d.doc)).map((d) => (
                  <option key={d} value={d}>
                    {docTitle(d)}
                  </option>
                ))}
              </select>
            </div>
            {highlight && <div className="subtle">Showing the answer’s path: {highlight.names.join(" → ")}</div>}
          </>
        )}
        {sel?.kind === "node" && entities.get(sel.id) && (
          <EntityCard e={entities.get(sel.id)!} meta={selMeta} total={info?.total ?? 0} rels={[...relations.values()].filter((r) => r.subject === sel.id || r.object === sel.id)} names={entities} onOpenSource={onOpenSource} onExpand={bench ? undefined : () => void expand(sel.id, 80)} docTitle={docTitle} />
        )}
        {sel?.kind === "edge" && relations.get(sel.id) && <RelationCard r={relations.get(sel.id)!} names={entities} onOpenSource={onOpenSource} docTitle={docTitle} />}
      </div>
      <div className="graph-canvas card" ref={box} data-testid="graph-canvas">
        {data && data.nodes.length === 0 && <div className="canvas-note subtle">{info && info.total === 0 && !req.docs.length ? "The graph is empty: it is built when the project is indexed." : "No entity in this scope."}</div>}
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

function EntityCard({ e, meta, total, rels, names, onOpenSource, onExpand, docTitle }: { e: Entity; meta?: NodeMeta; total: number; rels: Relation[]; names: Map<number, Entity>; onOpenSource: OpenSource; onExpand?: () => void; docTitle: (id: number) => string }) {
  const nm = (id: number, fallback?: string) => names.get(id)?.name ?? fallback ?? `#${id}`;
  return (
    <div className="card detail-card" data-testid="entity-card">
      <div className="eyebrow">{e.type || "entity"}{e.semantic_type ? ` · ${e.semantic_type}` : ""}</div>
      <h2>{e.name}</h2>
      {e.description && <p>{e.description}</p>}
      {(e.aliases?.length ?? 0) > 0 && <p className="subtle">Also: {e.aliases!.join(", ")}</p>}
      {meta && (
        <p className="subtle" data-testid="entity-rank">
          {count(meta.mentions)} mentions · {meta.rank === 1 ? "the most central" : `the ${ordinal(meta.rank)} most central`} of {count(total)}
        </p>
      )}
      {onExpand && (
        <button className="btn btn-small" onClick={onExpand}>
          More neighbours
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

function ordinal(n: number): string {
  const t = n % 100;
  const suf = t >= 11 && t <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${count(n)}${suf}`;
}
