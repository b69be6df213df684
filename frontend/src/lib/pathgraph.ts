// Reasoning paths (kb.Path) → a small drawn graph for the reasoning panel:
// one node per distinct entity, one edge per distinct step, laid out in
// columns by step number with the chosen path on the first row.
import type { Path, PathEdge, Source } from "../api/model";

export interface PathNode {
  key: string;
  label: string;
  x: number;
  y: number;
  /** On the chosen path. */
  chosen: boolean;
  /** Indices of the paths that pass through it. */
  paths: number[];
}

export interface PathGraphEdge {
  key: string;
  from: string;
  to: string;
  label: string;
  source: Source;
  relation?: number;
  /** The full joining sentence when the label quotes it (shown on hover). */
  sentence?: string;
  chosen: boolean;
  paths: number[];
  /** Parallel edges between the same two nodes: this one's lane, centred on 0. */
  lane: number;
}

export interface PathGraph {
  nodes: PathNode[];
  edges: PathGraphEdge[];
  /** Index of the chosen path (the flagged one, else the best scored); -1 if none. */
  chosen: number;
  /** Paths in drawing order: index into the answer's paths, best first. */
  order: number[];
  width: number;
  height: number;
}

export const PATH_LAYOUT = { colW: 190, rowH: 74, padX: 84, padY: 34 };

/** Longest node label drawn (longer ones are cut with "…"), and its width per character. */
export const NODE_LABEL_MAX = 24;
const CHAR_W = 6.8;

/** Half the drawn width of a node's label. */
export function labelHalfWidth(label: string): number {
  return (Math.min(label.length, NODE_LABEL_MAX) * CHAR_W) / 2;
}

export function nodeKey(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, " ");
}

/** The chain of node labels of a path: its nodes, else read from its edges. */
export function pathChain(p: Path): string[] {
  const nodes = (p.nodes ?? []).filter((n) => n && n.trim());
  if (nodes.length) return nodes;
  const edges = p.edges ?? [];
  if (!edges.length) return [];
  return [edges[0].from, ...edges.map((e) => e.to)];
}

/** Which path is chosen: the one flagged Chosen, else the highest score. */
export function chosenPath(paths: Path[]): number {
  if (!paths.length) return -1;
  const flagged = paths.findIndex((p) => p.chosen);
  if (flagged >= 0) return flagged;
  let best = 0;
  paths.forEach((p, i) => {
    if (p.score > paths[best].score) best = i;
  });
  return best;
}

export function buildPathGraph(input: Path[] | null | undefined, layout = PATH_LAYOUT): PathGraph {
  const paths = input ?? [];
  const chosen = chosenPath(paths);
  const order = paths.map((_, i) => i).sort((a, b) => (a === chosen ? -1 : b === chosen ? 1 : paths[b].score - paths[a].score));

  const nodes = new Map<string, PathNode & { col: number }>();
  const edges = new Map<string, PathGraphEdge>();
  const rowsUsed = new Map<number, number>(); // column → rows taken

  for (const pi of order) {
    const p = paths[pi];
    const chain = pathChain(p);
    chain.forEach((label, col) => {
      const key = nodeKey(label);
      const n = nodes.get(key);
      if (n) {
        if (!n.paths.includes(pi)) n.paths.push(pi);
        if (pi === chosen) n.chosen = true;
        return;
      }
      const row = rowsUsed.get(col) ?? 0;
      rowsUsed.set(col, row + 1);
      nodes.set(key, {
        key,
        label: label.trim(),
        col,
        x: layout.padX + col * layout.colW,
        y: layout.padY + row * layout.rowH,
        chosen: pi === chosen,
        paths: [pi],
      });
    });
    const stepEdges: PathEdge[] = p.edges ?? [];
    for (const e of stepEdges) {
      const from = nodeKey(e.from);
      const to = nodeKey(e.to);
      if (!nodes.has(from) || !nodes.has(to)) continue;
      const key = `${from}\u0000${e.predicate}\u0000${to}`;
      const ex = edges.get(key);
      if (ex) {
        if (!ex.paths.includes(pi)) ex.paths.push(pi);
        if (pi === chosen) ex.chosen = true;
        continue;
      }
      edges.set(key, { key, from, to, label: e.predicate, source: e.source, relation: e.relation, sentence: e.sentence, chosen: pi === chosen, paths: [pi], lane: 0 });
    }
  }
  // Lanes: edges sharing two ends (either direction) fan out around the straight line.
  const pairs = new Map<string, PathGraphEdge[]>();
  for (const e of edges.values()) {
    const k = [e.from, e.to].sort().join("\u0000");
    pairs.set(k, [...(pairs.get(k) ?? []), e]);
  }
  for (const group of pairs.values()) group.forEach((e, i) => (e.lane = i - (group.length - 1) / 2));
  const list = [...nodes.values()];
  const cols = list.reduce((m, n) => Math.max(m, n.col), 0) + 1;
  const rows = Math.max(1, ...rowsUsed.values());
  return {
    nodes: list.map(({ col: _c, ...n }) => n),
    edges: [...edges.values()],
    chosen,
    order,
    // Wide enough for every label: the drawing scales to the panel (or scrolls), never cuts a node off.
    width: list.length ? Math.max(layout.padX * 2 + (cols - 1) * layout.colW, ...list.map((n) => n.x + labelHalfWidth(n.label) + 10)) : 0,
    height: list.length ? layout.padY * 2 + (rows - 1) * layout.rowH : 0,
  };
}

/** Short text for a path's scores: "0.82 (semantic 0.70 · structure 0.94)". */
export function pathScore(p: Path): string {
  const f = (v: number) => v.toFixed(2);
  const parts: string[] = [];
  if (p.semantic !== undefined && p.semantic !== null) parts.push(`semantic ${f(p.semantic)}`);
  if (p.structural !== undefined && p.structural !== null) parts.push(`structure ${f(p.structural)}`);
  return parts.length ? `${f(p.score)} (${parts.join(" · ")})` : f(p.score);
}

/** What a path's steps are, in words (kb.Path.kind, backend/reason/drawn.go). */
export function pathKindLabel(kind: string | undefined): string {
  switch (kind) {
    case "relations":
      return "graph relations";
    case "sentences":
      return "a chain of sentences";
    case "mixed":
      return "graph relations and sentences";
    case "table":
      return "a table's rows";
  }
  return "";
}

/** The sentence over the path list: what kinds of path are drawn. */
export function pathsKindLine(paths: { kind?: string }[]): string {
  const kinds = [...new Set(paths.map((p) => p.kind ?? "").filter(Boolean))];
  if (kinds.length === 0) return "";
  if (kinds.length === 1) {
    const n = paths.length;
    return `${n === 1 ? "The path follows" : `All ${n} paths follow`} ${pathKindLabel(kinds[0])}.`;
  }
  const count = (k: string) => paths.filter((p) => p.kind === k).length;
  return kinds.map((k) => `${count(k)} ${count(k) === 1 ? "path follows" : "paths follow"} ${pathKindLabel(k)}`).join("; ") + ".";
}
