// Mind maps (kb.MindMap) → a tree, a left-to-right tidy layout with
// collapsible branches, search, and export file names (the Markdown and OPML
// files themselves come from the backend, mindmap.Export). Pure: the view
// only draws what layoutTree returns.
import type { MindKind, MindMap, MindNode, Supernode } from "../api/model";
import { fileName } from "./format";

export interface TreeNode {
  id: string;
  label: string;
  kind: MindKind | "root";
  node?: MindNode;
  /** For nodes fused across documents: the supernode. */
  shared?: Supernode;
  children: TreeNode[];
  depth: number;
}

/**
 * Builds the tree of a mind map. Nodes whose parent is 0 (or missing) are
 * roots; more than one root (the fused map: one topic per document) hangs
 * under a synthetic root titled rootLabel. Children keep the map's order.
 */
export function buildTree(map: MindMap | null | undefined, rootLabel: string, docTitle?: (docID: number) => string): TreeNode {
  const nodes = map?.nodes ?? [];
  const supers = new Map<number, Supernode>((map?.supernodes ?? []).map((s) => [s.id, s]));
  const byID = new Map<number, TreeNode>();
  for (const n of nodes) {
    const shared = n.supernode ? supers.get(n.supernode) : undefined;
    byID.set(n.id, { id: `n${n.id}`, label: n.label, kind: n.kind, node: n, shared: shared && (shared.doc_ids?.length ?? 0) > 1 ? shared : undefined, children: [], depth: 0 });
  }
  const roots: TreeNode[] = [];
  for (const n of nodes) {
    const t = byID.get(n.id)!;
    const parent = n.parent ? byID.get(n.parent) : undefined;
    if (parent && parent !== t) parent.children.push(t);
    else roots.push(t);
  }
  let root: TreeNode;
  if (roots.length === 1) root = roots[0];
  else {
    root = { id: "root", label: rootLabel, kind: "root", children: roots, depth: 0 };
    if (docTitle) for (const r of roots) if (r.kind === "topic" && r.node && !r.label) r.label = docTitle(r.node.doc_id);
  }
  // Depths, guarding against cycles in bad data.
  const seen = new Set<TreeNode>();
  const walk = (t: TreeNode, d: number) => {
    seen.add(t);
    t.depth = d;
    t.children = t.children.filter((c) => !seen.has(c));
    for (const c of t.children) walk(c, d + 1);
  };
  walk(root, 0);
  return root;
}

export function countNodes(t: TreeNode): number {
  return 1 + t.children.reduce((n, c) => n + countNodes(c), 0);
}

/** Ids to collapse at first: every branch deeper than `depth` when the map is big. */
export function initialCollapsed(root: TreeNode, maxVisible = 140, depth = 1): Set<string> {
  const out = new Set<string>();
  if (countNodes(root) <= maxVisible) return out;
  const walk = (t: TreeNode) => {
    if (t.depth >= depth && t.children.length) out.add(t.id);
    t.children.forEach(walk);
  };
  walk(root);
  return out;
}

export interface LaidNode {
  t: TreeNode;
  x: number;
  y: number;
  width: number;
  collapsed: boolean;
  hidden: number; // descendants hidden under a collapsed node
  match: boolean;
}

export interface LaidLink {
  from: LaidNode;
  to: LaidNode;
}

export interface TreeLayout {
  nodes: LaidNode[];
  links: LaidLink[];
  width: number;
  height: number;
}

export const TREE_LAYOUT = { rowH: 30, gapX: 46, charW: 7, minW: 60, maxW: { root: 240, topic: 240, route: 220, fact: 340 } as Record<string, number>, pad: 24 };

/** Display width of a node's label box, from its length (CJK counts double). */
export function labelWidth(t: TreeNode, l = TREE_LAYOUT): number {
  let units = 0;
  for (const ch of t.label) units += /[\u1100-\uffff]/.test(ch) ? 2 : 1;
  const max = l.maxW[t.kind] ?? 240;
  return Math.round(Math.min(max, Math.max(l.minW, units * l.charW + 24)));
}

/**
 * Tidy left-to-right layout: each visible leaf takes one row; a parent sits
 * at the middle of its children; columns are as wide as their widest label.
 */
export function layoutTree(root: TreeNode, collapsed: Set<string>, matches: Set<string> = new Set(), l = TREE_LAYOUT): TreeLayout {
  const colW: number[] = [];
  const visit = (t: TreeNode) => {
    colW[t.depth] = Math.max(colW[t.depth] ?? 0, labelWidth(t, l));
    if (!collapsed.has(t.id)) t.children.forEach(visit);
  };
  visit(root);
  const colX: number[] = [];
  let x = l.pad;
  colW.forEach((w, d) => {
    colX[d] = x;
    x += w + l.gapX;
  });

  const nodes: LaidNode[] = [];
  const links: LaidLink[] = [];
  let row = 0;
  const place = (t: TreeNode): LaidNode => {
    const isCollapsed = collapsed.has(t.id) && t.children.length > 0;
    const laid: LaidNode = { t, x: colX[t.depth], y: 0, width: labelWidth(t, l), collapsed: isCollapsed, hidden: isCollapsed ? countNodes(t) - 1 : 0, match: matches.has(t.id) };
    nodes.push(laid);
    if (isCollapsed || t.children.length === 0) {
      laid.y = l.pad + row * l.rowH;
      row++;
    } else {
      const kids = t.children.map(place);
      laid.y = (kids[0].y + kids[kids.length - 1].y) / 2;
      for (const k of kids) links.push({ from: laid, to: k });
    }
    return laid;
  };
  place(root);
  return { nodes, links, width: x - l.gapX + l.pad, height: l.pad * 2 + Math.max(0, row - 1) * l.rowH + l.rowH };
}

/** Nodes whose label contains the query (case-insensitive), and their ancestors (to expand). */
export function searchTree(root: TreeNode, query: string): { matches: Set<string>; ancestors: Set<string> } {
  const q = query.trim().toLowerCase();
  const matches = new Set<string>();
  const ancestors = new Set<string>();
  if (!q) return { matches, ancestors };
  const walk = (t: TreeNode, path: string[]) => {
    if (t.label.toLowerCase().includes(q)) {
      matches.add(t.id);
      path.forEach((id) => ancestors.add(id));
    }
    for (const c of t.children) walk(c, [...path, t.id]);
  };
  walk(root, []);
  return { matches, ancestors };
}

/** Path of an export file from a title: "Mind map - DMCA summary.md". */
export function exportName(title: string, ext: string): string {
  return fileName(title, ext, "mind map");
}

/**
 * The view (translate x, y and scale k) that fits the visible nodes of a
 * layout in a canvas of w × h: scaled down to fit (never below minK, never
 * above 1), centred; when even minK cannot fit it, the root stays in view,
 * vertically centred, at the left edge.
 */
export function fitView(layout: TreeLayout, w: number, h: number, minK = 0.5, pad = 16): { x: number; y: number; k: number } {
  if (!layout.nodes.length || w <= 0 || h <= 0) return { x: 0, y: 0, k: 1 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of layout.nodes) {
    x0 = Math.min(x0, n.x);
    x1 = Math.max(x1, n.x + n.width);
    y0 = Math.min(y0, n.y - 14);
    y1 = Math.max(y1, n.y + 14);
  }
  const bw = x1 - x0 + 2 * pad;
  const bh = y1 - y0 + 2 * pad;
  const k = Math.max(minK, Math.min(1, w / bw, h / bh));
  const fitsW = bw * k <= w + 0.5;
  const fitsH = bh * k <= h + 0.5;
  const x = fitsW ? (w - (x1 + x0) * k) / 2 : pad * k - x0 * k;
  const root = layout.nodes[0];
  const y = fitsH ? (h - (y1 + y0) * k) / 2 : Math.min(pad * k - y0 * k, Math.max(h - (y1 + pad) * k, h / 2 - root.y * k));
  return { x, y, k };
}
