import { describe, expect, it } from "vitest";
import type { Path, Source } from "../api/model";
import { buildPathGraph, chosenPath, pathChain, pathKindLabel, pathScore, pathsKindLine, PATH_LAYOUT } from "./pathgraph";

const src = (chunk: number, page = 1): Source => ({ doc_id: 1, chunk_id: chunk, page_start: page, page_end: page, char_start: chunk * 10, char_end: chunk * 10 + 5 });
const edge = (from: string, predicate: string, to: string, chunk: number) => ({ from, to, predicate, source: src(chunk) });

const paths: Path[] = [
  { score: 0.4, nodes: ["DMCA", "Section 512", "safe harbor"], edges: [edge("DMCA", "adds", "Section 512", 1), edge("Section 512", "creates", "safe harbor", 2)] },
  { score: 0.9, chosen: true, semantic: 0.8, structural: 1, nodes: ["DMCA", "WIPO treaties", "anticircumvention"], edges: [edge("DMCA", "implements", "WIPO treaties", 3), edge("WIPO treaties", "require", "anticircumvention", 4)] },
  { score: 0.7, nodes: [], edges: [edge("dmca", "implements", "WIPO Treaties", 3), edge("WIPO Treaties", "covers", "performances", 5)] },
];

describe("chosenPath", () => {
  it("prefers the flagged path, else the best score", () => {
    expect(chosenPath(paths)).toBe(1);
    expect(chosenPath(paths.map((p) => ({ ...p, chosen: false })))).toBe(1);
    expect(chosenPath([{ score: 0.1, nodes: [], edges: [] }, { score: 0.3, nodes: [], edges: [] }])).toBe(1);
    expect(chosenPath([])).toBe(-1);
  });
});

describe("pathChain", () => {
  it("reads the chain from the edges when nodes are missing", () => {
    expect(pathChain(paths[2])).toEqual(["dmca", "WIPO Treaties", "performances"]);
  });
});

describe("buildPathGraph", () => {
  const g = buildPathGraph(paths);
  it("merges nodes by name and steps by (from, predicate, to)", () => {
    expect(g.nodes.map((n) => n.label).sort()).toEqual(["anticircumvention", "DMCA", "performances", "safe harbor", "Section 512", "WIPO treaties"].sort());
    const shared = g.edges.find((e) => e.label === "implements")!;
    expect(shared.paths.sort()).toEqual([1, 2]);
    expect(shared.chosen).toBe(true);
    expect(g.edges).toHaveLength(5);
  });
  it("puts the chosen path first, on the top row, in step order", () => {
    expect(g.chosen).toBe(1);
    expect(g.order).toEqual([1, 2, 0]);
    const chosen = g.nodes.filter((n) => n.chosen);
    expect(chosen.map((n) => n.label)).toEqual(["DMCA", "WIPO treaties", "anticircumvention"]);
    expect(new Set(chosen.map((n) => n.y))).toEqual(new Set([PATH_LAYOUT.padY]));
    expect(chosen.map((n) => n.x)).toEqual([0, 1, 2].map((c) => PATH_LAYOUT.padX + c * PATH_LAYOUT.colW));
  });
  it("never stacks two nodes on one spot and fits them in its size", () => {
    const spots = new Set(g.nodes.map((n) => `${n.x},${n.y}`));
    expect(spots.size).toBe(g.nodes.length);
    for (const n of g.nodes) {
      expect(n.x).toBeLessThanOrEqual(g.width);
      expect(n.y).toBeLessThanOrEqual(g.height);
    }
  });
  it("fans parallel edges into lanes", () => {
    const par = buildPathGraph([
      { score: 1, nodes: ["A", "B"], edges: [edge("A", "requires", "B", 1)] },
      { score: 0.5, nodes: ["A", "B"], edges: [edge("A", "directs", "B", 2)] },
    ]);
    expect(par.edges.map((e) => e.lane)).toEqual([-0.5, 0.5]);
    expect(g.edges.find((e) => e.label === "creates")!.lane).toBe(0);
  });
  it("keeps each edge's source passage", () => {
    expect(g.edges.find((e) => e.label === "creates")!.source.chunk_id).toBe(2);
  });
  it("is empty for no paths", () => {
    expect(buildPathGraph(null)).toMatchObject({ nodes: [], edges: [], chosen: -1, width: 0, height: 0 });
  });
});

describe("pathScore", () => {
  it("shows the parts when known", () => {
    expect(pathScore(paths[1])).toBe("0.90 (semantic 0.80 · structure 1.00)");
    expect(pathScore(paths[0])).toBe("0.40");
  });
});

import { labelHalfWidth } from "./pathgraph";
describe("buildPathGraph width", () => {
  it("is wide enough for the last node's label of a two-edge path", () => {
    const p: Path[] = [{ score: 1, chosen: true, nodes: ["Femmes de Sade", "Alex de Renzy", "Buenos Aires, Argentina, South America"], edges: [edge("Femmes de Sade", "directed by", "Alex de Renzy", 1), { ...edge("Alex de Renzy", "“Alex de Renzy was born in Buenos Aires…”", "Buenos Aires, Argentina, South America", 2), sentence: "Alex de Renzy was born in Buenos Aires, Argentina, South America." }] }];
    const g = buildPathGraph(p);
    for (const n of g.nodes) {
      expect(n.x - labelHalfWidth(n.label)).toBeGreaterThanOrEqual(0);
      expect(n.x + labelHalfWidth(n.label)).toBeLessThanOrEqual(g.width);
    }
    expect(g.edges.find((e) => e.sentence)?.sentence).toContain("born in Buenos Aires");
  });
});

describe("path kinds", () => {
  it("names each kind and sums them up", () => {
    expect(pathKindLabel("relations")).toBe("graph relations");
    expect(pathKindLabel("sentences")).toBe("a chain of sentences");
    expect(pathKindLabel("table")).toBe("a table's rows");
    expect(pathKindLabel(undefined)).toBe("");
    expect(pathsKindLine([{ kind: "sentences" }])).toBe("The path follows a chain of sentences.");
    expect(pathsKindLine([{ kind: "relations" }, { kind: "relations" }])).toBe("All 2 paths follow graph relations.");
    expect(pathsKindLine([{ kind: "relations" }, { kind: "sentences" }, { kind: "sentences" }])).toBe("1 path follows graph relations; 2 paths follow a chain of sentences.");
    expect(pathsKindLine([{}])).toBe("");
  });
});
