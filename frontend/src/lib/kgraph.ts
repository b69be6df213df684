// Knowledge graph (kb.Graph) → the node and edge attributes the WebGL
// explorer draws: colour by type, size by degree, a deterministic starting
// layout, filtering by type and document, and search. Pure; sigma and
// graphology are only touched by the view.
import type { Entity, Graph, GraphView, Relation } from "../api/model";

export interface GNode {
  key: string;
  id: number;
  label: string;
  type: string;
  degree: number;
  size: number;
  color: string;
  x: number;
  y: number;
  docs: number[];
}

export interface GEdge {
  key: string;
  id: number;
  source: string;
  target: string;
  label: string;
  size: number;
  color: string;
}

export interface GraphData {
  nodes: GNode[];
  edges: GEdge[];
  types: { type: string; count: number; color: string }[];
  docs: number[];
}

/** The predicate of a relation no sentence states (backend/relphrase.CoOccurs). */
export const CO_OCCURS = "co-occurs with";

const PALETTE = ["#2b5866", "#b0651f", "#5a7d2a", "#8a3f6b", "#3f5fa8", "#9a7b12", "#2f7f78", "#a8423a", "#6b5aa8", "#55606a"];

/** Stable colour of an entity type: the commonest types get the palette in order. */
export function typeColors(types: string[]): Map<string, string> {
  return new Map(types.map((t, i) => [t, i < PALETTE.length - 1 ? PALETTE[i] : PALETTE[PALETTE.length - 1]]));
}

export const nodeKeyOf = (id: number) => `e${id}`;

function entityDocs(e: Entity): number[] {
  return [...new Set((e.mentions ?? []).map((m) => m.doc_id))].sort((a, b) => a - b);
}

/**
 * Builds the explorer's data. Edges whose ends are missing are dropped;
 * parallel relations stay (each is its own statement). Positions: a
 * golden-angle spiral, most connected first, so hubs start in the middle
 * and the force layout has little to undo.
 */
export function toGraphData(g: Graph | null | undefined): GraphData {
  const entities = g?.entities ?? [];
  const relations = g?.relations ?? [];
  const ids = new Set(entities.map((e) => e.id));
  const degree = new Map<number, number>();
  const edges: GEdge[] = [];
  for (const r of relations) {
    if (!ids.has(r.subject) || !ids.has(r.object)) continue;
    degree.set(r.subject, (degree.get(r.subject) ?? 0) + 1);
    degree.set(r.object, (degree.get(r.object) ?? 0) + 1);
    // A co-occurrence states nothing: its edge is drawn fainter and unlabelled
    // (its card still quotes the sentence).
    const co = r.predicate === CO_OCCURS;
    edges.push({ key: `r${r.id}`, id: r.id, source: nodeKeyOf(r.subject), target: nodeKeyOf(r.object), label: co ? "" : r.predicate, size: co ? 0.7 : 1 + Math.min(2, (r.confidence || 0) * 1.5), color: co ? "#dcd8cf" : "#a9a193" });
  }
  const typeCount = new Map<string, number>();
  for (const e of entities) typeCount.set(e.type || "other", (typeCount.get(e.type || "other") ?? 0) + 1);
  const types = [...typeCount.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const colors = typeColors(types.map(([t]) => t));
  const order = [...entities].sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || a.id - b.id);
  const golden = Math.PI * (3 - Math.sqrt(5));
  const docs = new Set<number>();
  const nodes: GNode[] = order.map((e, i) => {
    const d = degree.get(e.id) ?? 0;
    const r = Math.sqrt(i + 0.5) * 10;
    const ed = entityDocs(e);
    ed.forEach((x) => docs.add(x));
    const type = e.type || "other";
    return { key: nodeKeyOf(e.id), id: e.id, label: e.name, type, degree: d, size: 3 + Math.min(12, Math.sqrt(d) * 2), color: colors.get(type)!, x: r * Math.cos(i * golden), y: r * Math.sin(i * golden), docs: ed };
  });
  return { nodes, edges, types: types.map(([type, count]) => ({ type, count, color: colors.get(type)! })), docs: [...docs].sort((a, b) => a - b) };
}

export interface GraphFilter {
  /** Types to hide. */
  hiddenTypes: Set<string>;
  /** Only entities mentioned in this document (0: all). */
  doc: number;
}

/** Keys of the nodes a filter keeps. */
export function visibleNodes(data: GraphData, f: GraphFilter): Set<string> {
  const out = new Set<string>();
  for (const n of data.nodes) {
    if (f.hiddenTypes.has(n.type)) continue;
    if (f.doc && !n.docs.includes(f.doc)) continue;
    out.add(n.key);
  }
  return out;
}

/** Nodes whose label matches the query, best first (prefix before substring, then degree). */
export function searchNodes(data: GraphData, query: string, limit = 12): GNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits: { n: GNode; rank: number }[] = [];
  for (const n of data.nodes) {
    const l = n.label.toLowerCase();
    const i = l.indexOf(q);
    if (i < 0) continue;
    hits.push({ n, rank: (l === q ? 0 : i === 0 ? 1 : 2) * 1e6 - n.degree });
  }
  return hits.sort((a, b) => a.rank - b.rank).slice(0, limit).map((h) => h.n);
}

/** Merges a neighbourhood into a graph (expand a node): new entities and relations only. */
export function mergeGraphs(a: Graph, b: Graph): Graph {
  const ents = new Map<number, Entity>((a.entities ?? []).map((e) => [e.id, e]));
  for (const e of b.entities ?? []) if (!ents.has(e.id)) ents.set(e.id, e);
  const rels = new Map<number, Relation>((a.relations ?? []).map((r) => [r.id, r]));
  for (const r of b.relations ?? []) if (!rels.has(r.id)) rels.set(r.id, r);
  return { entities: [...ents.values()], relations: [...rels.values()] };
}

/** A seeded pseudo-random generator (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A synthetic graph of n entities with about n·perNode relations, shaped
 * like extracted graphs (preferential attachment: a few hubs, many leaves),
 * for measuring the explorer at sizes real projects reach.
 */
export function syntheticGraph(n: number, perNode = 1.5, seed = 1): Graph {
  const rand = rng(seed);
  const types = ["person", "organisation", "place", "concept", "law", "date", "event"];
  const entities: Entity[] = [];
  const relations: Relation[] = [];
  const ends: number[] = [];
  for (let i = 1; i <= n; i++) {
    const doc = 1 + Math.floor(rand() * 12);
    entities.push({ id: i, name: `${types[i % types.length]} ${i}`, type: types[Math.floor(rand() * rand() * types.length)], aliases: [], mentions: [{ doc_id: doc, chunk_id: i, page_start: 1, page_end: 1, char_start: 0, char_end: 1 }] });
    const m = i === 1 ? 0 : Math.max(1, Math.round(perNode * (0.5 + rand())));
    for (let k = 0; k < m; k++) {
      const j = ends.length && rand() < 0.8 ? ends[Math.floor(rand() * ends.length)] : 1 + Math.floor(rand() * (i - 1));
      if (j === i || j < 1) continue;
      relations.push({ id: relations.length + 1, subject: i, predicate: "related to", object: j, statement: "", confidence: rand(), sources: [] });
      ends.push(i, j);
    }
  }
  return { entities, relations };
}

/** An entity's place in the library-scale view: rank, centrality, group. */
export interface NodeMeta {
  rank: number;
  score: number;
  group: number;
  mentions: number;
}

/** A view as the explorer keeps it: the entities and relations drawn so far
 * (overview plus expansions) and each entity's place in its scope. */
export interface ViewState {
  graph: Graph;
  meta: Map<number, NodeMeta>;
  groups: Map<number, { name: string; size: number }>;
}

/** A GraphView reply → the explorer's state. */
export function fromView(v: GraphView): ViewState {
  const meta = new Map<number, NodeMeta>();
  for (const n of v.nodes ?? []) meta.set(n.id, { rank: n.rank, score: n.score, group: n.group, mentions: n.mentions });
  const groups = new Map<number, { name: string; size: number }>();
  for (const g of v.groups ?? []) groups.set(g.id, { name: g.name, size: g.size });
  return { graph: { entities: v.entities ?? [], relations: v.relations ?? [] }, meta, groups };
}

/** Adds an expansion (a node's neighbours) to what is drawn: new entities,
 * relations and groups only; what is already drawn keeps its place. */
export function mergeViews(a: ViewState, b: ViewState): ViewState {
  const meta = new Map(a.meta);
  for (const [k, m] of b.meta) if (!meta.has(k)) meta.set(k, m);
  const groups = new Map(a.groups);
  for (const [k, g] of b.groups) if (!groups.has(k)) groups.set(k, g);
  return { graph: mergeGraphs(a.graph, b.graph), meta, groups };
}

/**
 * Positions and sizes for a view: each group gets a centre on a golden
 * spiral (largest group in the middle), its members a small spiral around
 * it, most central first; a node's size follows its centrality. Pure: the
 * force layout starts from here.
 */
export function layoutByGroup(d: GraphData, meta: Map<number, NodeMeta>): GraphData {
  const golden = Math.PI * (3 - Math.sqrt(5));
  const byGroup = new Map<number, GNode[]>();
  for (const n of d.nodes) {
    const g = meta.get(n.id)?.group ?? n.id;
    if (!byGroup.has(g)) byGroup.set(g, []);
    byGroup.get(g)!.push(n);
  }
  const groups = [...byGroup.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const top = Math.max(...d.nodes.map((n) => meta.get(n.id)?.score ?? 0), 1e-12);
  const placed = new Map<string, { x: number; y: number; size: number }>();
  groups.forEach(([, members], gi) => {
    const spread = 12 * Math.sqrt(members.length);
    const r = gi === 0 ? 0 : 40 * Math.sqrt(gi) + spread;
    const cx = r * Math.cos(gi * golden);
    const cy = r * Math.sin(gi * golden);
    members.sort((a, b) => (meta.get(b.id)?.score ?? 0) - (meta.get(a.id)?.score ?? 0) || a.id - b.id);
    members.forEach((n, i) => {
      const rr = Math.sqrt(i + 0.5) * 12;
      const s = meta.get(n.id)?.score ?? 0;
      placed.set(n.key, { x: cx + rr * Math.cos(i * golden), y: cy + rr * Math.sin(i * golden), size: 4 + 14 * Math.sqrt(s / top) });
    });
  });
  return { ...d, nodes: d.nodes.map((n) => ({ ...n, ...placed.get(n.key)! })) };
}

/** The types a scope request allows: none when nothing is hidden (all). */
export function allowedTypes(all: string[], hidden: Set<string>): string[] {
  return hidden.size ? all.filter((t) => !hidden.has(t)) : [];
}
