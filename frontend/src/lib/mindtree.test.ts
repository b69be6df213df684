import { describe, expect, it } from "vitest";
import type { MindMap, MindNode } from "../api/model";
import { buildTree, countNodes, exportName, initialCollapsed, layoutTree, searchTree, TREE_LAYOUT } from "./mindtree";

const n = (id: number, parent: number, kind: MindNode["kind"], label: string, extra: Partial<MindNode> = {}): MindNode => ({ id, parent, kind, label, doc_id: 1, ...extra });

const docMap: MindMap = {
  nodes: [
    n(1, 0, "topic", "DMCA summary"),
    n(2, 1, "route", "Safe harbors"),
    n(3, 2, "fact", "Service providers are not liable for transitory communications.", { chunk_id: 7, page_start: 9, page_end: 9, char_start: 100, char_end: 180 }),
    n(4, 2, "fact", "Caching is covered <under> conditions & limits.", { page_start: 10, page_end: 11 }),
    n(5, 1, "route", "Anticircumvention"),
    n(6, 5, "fact", "Circumvention devices are banned.", { page_start: 3, supernode: 1 }),
  ],
  supernodes: [{ id: 1, label: "circumvention", kind: "fact", members: [6, 16], doc_ids: [1, 2] }],
};

describe("buildTree", () => {
  it("nests nodes under their parents, keeping order and sources", () => {
    const t = buildTree(docMap, "All");
    expect(t.label).toBe("DMCA summary");
    expect(t.children.map((c) => c.label)).toEqual(["Safe harbors", "Anticircumvention"]);
    expect(t.children[0].children[0].node?.chunk_id).toBe(7);
    expect(t.children[1].children[0].shared?.doc_ids).toEqual([1, 2]);
    expect(countNodes(t)).toBe(6);
  });
  it("hangs several topics under a synthetic root (fused map)", () => {
    const fused: MindMap = { nodes: [...docMap.nodes!, n(11, 0, "topic", "", { doc_id: 2 }), n(12, 11, "route", "Articles", { doc_id: 2 })], supernodes: [] };
    const t = buildTree(fused, "All documents", (id) => `Doc ${id}`);
    expect(t.kind).toBe("root");
    expect(t.children.map((c) => c.label)).toEqual(["DMCA summary", "Doc 2"]);
    expect(t.children[1].children[0].depth).toBe(2);
  });
  it("survives a parent cycle and an empty map", () => {
    const t = buildTree({ nodes: [n(1, 2, "route", "a"), n(2, 1, "route", "b"), n(3, 0, "topic", "t")], supernodes: null }, "All");
    expect(countNodes(t)).toBeGreaterThanOrEqual(1);
    expect(buildTree(null, "Empty")).toMatchObject({ label: "Empty", children: [] });
  });
});

describe("layoutTree", () => {
  const t = buildTree(docMap, "All");
  it("gives each leaf its own row and centres parents", () => {
    const l = layoutTree(t, new Set());
    const leaves = l.nodes.filter((x) => x.t.children.length === 0);
    expect(new Set(leaves.map((x) => x.y)).size).toBe(leaves.length);
    const route = l.nodes.find((x) => x.t.label === "Safe harbors")!;
    const kids = l.nodes.filter((x) => x.t.node?.parent === 2);
    expect(route.y).toBe((kids[0].y + kids[1].y) / 2);
    expect(l.links).toHaveLength(5);
    for (const x of l.nodes) {
      expect(x.x + x.width).toBeLessThanOrEqual(l.width);
      expect(x.y).toBeLessThanOrEqual(l.height);
    }
  });
  it("columns never overlap", () => {
    const l = layoutTree(t, new Set());
    const byDepth = new Map<number, { x: number; right: number }>();
    for (const x of l.nodes) {
      const c = byDepth.get(x.t.depth) ?? { x: x.x, right: 0 };
      c.right = Math.max(c.right, x.x + x.width);
      byDepth.set(x.t.depth, c);
    }
    for (let d = 1; byDepth.has(d); d++) expect(byDepth.get(d)!.x).toBeGreaterThan(byDepth.get(d - 1)!.right);
  });
  it("collapsing a branch hides its descendants and counts them", () => {
    const l = layoutTree(t, new Set(["n2"]));
    expect(l.nodes.map((x) => x.t.id)).not.toContain("n3");
    expect(l.nodes.find((x) => x.t.id === "n2")).toMatchObject({ collapsed: true, hidden: 2 });
    expect(l.height).toBeLessThan(layoutTree(t, new Set()).height);
  });
  it("collapses deep branches of big maps at first", () => {
    expect(initialCollapsed(t).size).toBe(0);
    expect([...initialCollapsed(t, 3)].sort()).toEqual(["n2", "n5"]);
  });
  it("uses the layout constants", () => {
    expect(layoutTree(t, new Set()).nodes[0].x).toBe(TREE_LAYOUT.pad);
  });
});

describe("searchTree", () => {
  it("finds labels and the ancestors to expand", () => {
    const t = buildTree(docMap, "All");
    const r = searchTree(t, "CACHING");
    expect([...r.matches]).toEqual(["n4"]);
    expect([...r.ancestors].sort()).toEqual(["n1", "n2"]);
    expect(searchTree(t, "  ").matches.size).toBe(0);
  });
});

describe("exports", () => {
  it("file names are safe", () => {
    expect(exportName('a/b: "c"', "md")).toBe("a b c.md");
    expect(exportName("", "opml")).toBe("mind map.opml");
  });
});

import { fitView } from "./mindtree";
describe("fitView", () => {
  // A large document's map: many routes with many facts each, folded as it opens.
  const big: MindMap = { nodes: [n(1, 0, "topic", "IRS instructions")], supernodes: [] };
  for (let r = 0; r < 40; r++) {
    big.nodes!.push(n(100 + r, 1, "route", `Route ${r}`));
    for (let f = 0; f < 12; f++) big.nodes!.push(n(1000 + r * 20 + f, 100 + r, "fact", `Fact ${r}.${f} about filing`));
  }
  const t = buildTree(big, "All");
  const inView = (l: ReturnType<typeof layoutTree>, v: { x: number; y: number; k: number }, w: number, h: number) =>
    l.nodes.filter((nd) => {
      const x = v.x + nd.x * v.k;
      const y = v.y + nd.y * v.k;
      return x >= 0 && x <= w && y >= 0 && y <= h;
    }).length;
  it("opens a large map with its visible nodes on the canvas", () => {
    const l = layoutTree(t, initialCollapsed(t));
    const v = fitView(l, 900, 600);
    expect(inView(l, v, 900, 600)).toBeGreaterThan(0);
    expect(inView(l, v, 900, 600)).toBe(l.nodes.length <= 20 ? l.nodes.length : inView(l, v, 900, 600));
    // The root is on the canvas.
    expect(v.x + l.nodes[0].x * v.k).toBeGreaterThanOrEqual(0);
    expect(v.y + l.nodes[0].y * v.k).toBeGreaterThanOrEqual(0);
    expect(v.y + l.nodes[0].y * v.k).toBeLessThanOrEqual(600);
  });
  it("fits a small map whole, centred, at most at full size", () => {
    const small = buildTree(docMap, "All");
    const l = layoutTree(small, new Set());
    const v = fitView(l, 1200, 800);
    expect(v.k).toBe(1);
    expect(inView(l, v, 1200, 800)).toBe(l.nodes.length);
  });
  it("keeps the root in view when even half size cannot fit the map", () => {
    const l = layoutTree(t, new Set()); // all unfolded: far taller than the canvas
    const v = fitView(l, 800, 500);
    expect(v.k).toBe(0.5);
    const ry = v.y + l.nodes[0].y * v.k;
    expect(ry).toBeGreaterThanOrEqual(0);
    expect(ry).toBeLessThanOrEqual(500);
    expect(inView(l, v, 800, 500)).toBeGreaterThan(5);
  });
});
