import { describe, expect, it } from "vitest";
import type { Graph } from "../api/model";
import { allowedTypes, fromView, layoutByGroup, mergeGraphs, mergeViews, searchNodes, syntheticGraph, toGraphData, typeColors, visibleNodes } from "./kgraph";
import type { GraphView } from "../api/model";

const src = (doc: number) => ({ doc_id: doc, chunk_id: doc * 10, page_start: 1, page_end: 1, char_start: 0, char_end: 5 });
const g: Graph = {
  entities: [
    { id: 1, name: "Copyright Office", type: "organisation", aliases: [], mentions: [src(1)] },
    { id: 2, name: "DMCA", type: "law", aliases: [], mentions: [src(1), src(2)] },
    { id: 3, name: "Congress", type: "organisation", aliases: null, mentions: [src(2)] },
    { id: 4, name: "Copyright", type: "", aliases: [], mentions: null },
  ],
  relations: [
    { id: 10, subject: 2, predicate: "directs", object: 1, statement: "", confidence: 0.9, sources: [src(1)] },
    { id: 11, subject: 3, predicate: "enacted", object: 2, statement: "", confidence: 0.8, sources: [src(2)] },
    { id: 12, subject: 3, predicate: "ghost", object: 99, statement: "", confidence: 1, sources: [] },
  ],
};

describe("toGraphData", () => {
  const d = toGraphData(g);
  it("keeps edges with both ends and sizes nodes by degree", () => {
    expect(d.edges.map((e) => e.key)).toEqual(["r10", "r11"]);
    const dmca = d.nodes.find((n) => n.id === 2)!;
    expect(dmca.degree).toBe(2);
    expect(dmca.size).toBeGreaterThan(d.nodes.find((n) => n.id === 4)!.size);
    expect(d.nodes[0].id).toBe(2); // the hub starts in the middle
    expect(Math.hypot(d.nodes[0].x, d.nodes[0].y)).toBeLessThan(Math.hypot(d.nodes[3].x, d.nodes[3].y));
  });
  it("counts types (empty type → other) and colours them consistently", () => {
    expect(d.types.map((t) => [t.type, t.count])).toEqual([["organisation", 2], ["law", 1], ["other", 1]]);
    for (const n of d.nodes) expect(n.color).toBe(d.types.find((t) => t.type === n.type)!.color);
    expect(d.docs).toEqual([1, 2]);
  });
  it("handles an empty graph", () => {
    expect(toGraphData({ entities: null, relations: null })).toEqual({ nodes: [], edges: [], types: [], docs: [] });
  });
  it("never places two nodes on one spot", () => {
    const big = toGraphData(syntheticGraph(2000));
    expect(new Set(big.nodes.map((n) => `${n.x.toFixed(3)},${n.y.toFixed(3)}`)).size).toBe(2000);
  });
});

describe("filters and search", () => {
  const d = toGraphData(g);
  it("hides types and keeps one document's entities", () => {
    expect([...visibleNodes(d, { hiddenTypes: new Set(["organisation"]), doc: 0 })].sort()).toEqual(["e2", "e4"]);
    expect([...visibleNodes(d, { hiddenTypes: new Set(), doc: 2 })].sort()).toEqual(["e2", "e3"]);
  });
  it("ranks exact, then prefix, then substring matches", () => {
    expect(searchNodes(d, "copyright").map((n) => n.label)).toEqual(["Copyright", "Copyright Office"]);
    expect(searchNodes(d, "o").map((n) => n.label)).toEqual(["Copyright Office", "Congress", "Copyright"]);
    expect(searchNodes(d, " ")).toEqual([]);
  });
});

describe("mergeGraphs", () => {
  it("adds only what is new", () => {
    const m = mergeGraphs(g, { entities: [{ id: 2, name: "X", type: "law", aliases: [], mentions: [] }, { id: 5, name: "WIPO", type: "organisation", aliases: [], mentions: [] }], relations: [{ id: 13, subject: 5, predicate: "p", object: 2, statement: "", confidence: 1, sources: [] }] });
    expect(m.entities!.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(m.entities!.find((e) => e.id === 2)!.name).toBe("DMCA");
    expect(m.relations!.map((r) => r.id)).toEqual([10, 11, 12, 13]);
  });
});

describe("syntheticGraph", () => {
  it("is deterministic, connected to earlier nodes, and hub-shaped", () => {
    const a = syntheticGraph(10_000);
    expect(a).toEqual(syntheticGraph(10_000));
    expect(a.entities).toHaveLength(10_000);
    expect(a.relations!.length).toBeGreaterThan(10_000);
    const d = toGraphData(a);
    const maxDeg = Math.max(...d.nodes.map((n) => n.degree));
    expect(maxDeg).toBeGreaterThan(50);
  });
  it("typeColors is stable", () => {
    expect(typeColors(["a", "b"]).get("a")).toBe(typeColors(["a"]).get("a"));
  });
});

describe("library-scale view", () => {
  const view = (ids: number[], group: number): GraphView => ({
    entities: g.entities!.filter((e) => ids.includes(e.id)),
    relations: g.relations!.filter((r) => ids.includes(r.subject) && ids.includes(r.object)),
    nodes: ids.map((id, i) => ({ id, rank: i + 1, score: 1 / (i + 1), group, mentions: 1, degree: 1 })),
    groups: [{ id: group, name: `G${group}`, size: ids.length }],
    types: [],
    docs: [],
    total: 4,
    total_relations: 2,
    stated: 2,
  });
  it("keeps each entity's place and merges expansions without replacing", () => {
    const a = fromView(view([2, 1], 2));
    expect(a.meta.get(2)?.rank).toBe(1);
    const b = mergeViews(a, fromView(view([3, 2], 3)));
    expect(b.graph.entities!.map((e) => e.id).sort()).toEqual([1, 2, 3]);
    expect(b.meta.get(2)?.group).toBe(2); // drawn first: keeps its group
    expect(b.meta.get(3)?.group).toBe(3);
    expect([...b.groups.keys()].sort()).toEqual([2, 3]);
  });
  it("places groups apart and sizes nodes by centrality", () => {
    const st = mergeViews(fromView(view([2, 1], 2)), fromView(view([3, 4], 3)));
    const d = layoutByGroup(toGraphData(st.graph), st.meta);
    const at = (id: number) => d.nodes.find((n) => n.id === id)!;
    expect(at(2).size).toBeGreaterThan(at(1).size);
    const dist = (a: number, b: number) => Math.hypot(at(a).x - at(b).x, at(a).y - at(b).y);
    expect(dist(2, 1)).toBeLessThan(dist(2, 3));
  });
  it("asks for all types when none is hidden", () => {
    expect(allowedTypes(["a", "b"], new Set())).toEqual([]);
    expect(allowedTypes(["a", "b"], new Set(["a"]))).toEqual(["b"]);
  });
});
