// PDF pages rendered by pdf.js (canvas + text layer), scrolled to the cited
// page with the cited passage marked: drawn as the boxes of the page's
// stored layout blocks it covers (lib/pdfboxes), or, for pages stored
// without a layout (older documents, the fallback reader), by matching its
// text in the text layer. The worker is bundled by Vite (no network). Pages
// are drawn when they come near the viewport, so long documents open
// quickly.
import * as pdfjs from "pdfjs-dist";
import type { PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import "pdfjs-dist/web/pdf_viewer.css";
import { useEffect, useRef, useState } from "react";
import { spanRects, type LayoutPage, type Rect, type ToDrawn } from "../lib/pdfboxes";
import { matchSpan, type SpanMatch } from "../lib/pdfspan";

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

export interface PdfHighlight {
  page: number;
  /** The passage's text on that page (as Cairn extracted it). */
  text: string;
  /** Where it is in the page's text (UTF-16), and the page's stored layout. */
  start?: number;
  end?: number;
  layout?: LayoutPage;
}

/** How a passage was marked: "box" from the stored layout, else how well
 * its text was found in the text layer. */
export type MarkQuality = SpanMatch["quality"] | "box";

/** Where the PDF comes from: the originals endpoint, read by range. */
export interface PdfSource {
  url: string;
  httpHeaders: Record<string, string>;
}

export default function PdfPages({ source, targetPage, highlights, onMatched }: { source: PdfSource; targetPage?: number; highlights: PdfHighlight[]; onMatched?: (page: number, q: MarkQuality) => void }) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<{ w: number; h: number }[]>([]);
  const [error, setError] = useState("");
  const box = useRef<HTMLDivElement>(null);
  const width = useRef(820);

  useEffect(() => {
    let live = true;
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setError("");
    const task = pdfjs.getDocument({ url: source.url, httpHeaders: source.httpHeaders, withCredentials: true, isEvalSupported: false });
    task.promise.then(
      async (d) => {
        loaded = d;
        if (!live) return;
        width.current = Math.min(900, Math.max(480, (box.current?.clientWidth ?? 860) - 8));
        // Page sizes first, so the scroll position is right before drawing.
        const s: { w: number; h: number }[] = [];
        for (let i = 1; i <= d.numPages; i++) {
          const p = await d.getPage(i);
          const v = p.getViewport({ scale: 1 });
          s.push({ w: width.current, h: (v.height / v.width) * width.current });
        }
        if (!live) return;
        setSizes(s);
        setDoc(d);
      },
      (e) => live && setError(String(e?.message ?? e)),
    );
    return () => {
      live = false;
      task.destroy();
      loaded?.destroy();
    };
  }, [source.url]);

  useEffect(() => {
    if (!doc || !targetPage) return;
    const el = box.current?.querySelector(`[data-page="${targetPage}"]`);
    el?.scrollIntoView({ block: "start" });
  }, [doc, targetPage]);

  if (error) return <p className="subtle">This PDF could not be drawn: {error}</p>;
  if (!doc) return <p className="subtle pdf-loading">Opening the PDF…</p>;
  return (
    <div className="pdf-pages" ref={box} data-testid="pdf-pages">
      {sizes.map((s, i) => (
        <PdfPage key={i} doc={doc} number={i + 1} size={s} eager={targetPage !== undefined && Math.abs(i + 1 - targetPage) <= 1} focus={i + 1 === (targetPage ?? highlights[0]?.page)} highlight={highlights.filter((h) => h.page === i + 1)} onMatched={onMatched} />
      ))}
    </div>
  );
}

function PdfPage({ doc, number, size, eager, focus, highlight, onMatched }: { doc: PDFDocumentProxy; number: number; size: { w: number; h: number }; eager: boolean; focus: boolean; highlight: PdfHighlight[]; onMatched?: (page: number, q: MarkQuality) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(eager);
  const [state, setState] = useState<"idle" | "drawn">("idle");

  useEffect(() => {
    if (visible || !ref.current) return;
    const io = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && setVisible(true), { rootMargin: "600px 0px" });
    io.observe(ref.current);
    return () => io.disconnect();
  }, [visible]);

  const hlKey = highlight.map((h) => `${h.start}-${h.end}:${h.text}`).join("\u0000");
  useEffect(() => {
    if (!visible || !ref.current) return;
    let live = true;
    const host = ref.current;
    let renderTask: { cancel(): void; promise: Promise<unknown> } | null = null;
    let textLayer: pdfjs.TextLayer | null = null;
    (async () => {
      const page = await doc.getPage(number);
      if (!live) return;
      const base = page.getViewport({ scale: 1 });
      const scale = size.w / base.width;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const canvas = document.createElement("canvas");
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${viewport.width}px`;
      canvas.style.height = `${viewport.height}px`;
      canvas.className = "pdf-canvas";
      const layer = document.createElement("div");
      layer.className = "textLayer";
      // The passage's boxes from the stored layout, between the image and
      // the (transparent, selectable) text layer.
      const boxes = document.createElement("div");
      boxes.className = "pdf-boxes";
      const unboxed: PdfHighlight[] = [];
      for (const h of highlight) {
        const rects = h.layout && h.start !== undefined && h.end !== undefined ? spanRects(h.layout, h.start, h.end, toViewport(h.layout, page.view, viewport)) : null;
        if (rects && rects.length) boxes.append(...rects.map(boxDiv));
        else unboxed.push(h);
      }
      host.querySelectorAll(".pdf-canvas, .pdf-boxes, .textLayer").forEach((n) => n.remove());
      host.append(canvas, boxes, layer);
      host.style.setProperty("--scale-factor", String(scale));
      host.style.setProperty("--total-scale-factor", String(scale));
      renderTask = page.render({ canvas, canvasContext: canvas.getContext("2d")!, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
      await renderTask.promise;
      if (!live) return;
      if (boxes.firstElementChild) {
        // The passage's start is brought into view (on its first page).
        if (focus) (boxes.firstElementChild as HTMLElement).scrollIntoView({ block: "center" });
        onMatched?.(number, "box");
      }
      textLayer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: layer, viewport });
      await textLayer.render();
      if (!live) return;
      for (const h of unboxed) {
        const m = matchSpan(textLayer.textContentItemsStr, h.text);
        markItems(textLayer.textDivs, textLayer.textContentItemsStr, m, focus);
        onMatched?.(number, m.quality);
      }
      setState("drawn");
    })().catch((e) => {
      if (live && e?.name !== "RenderingCancelledException") console.warn("pdf page", number, e);
    });
    return () => {
      live = false;
      renderTask?.cancel();
      textLayer?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible, doc, number, size.w, hlKey]);

  return (
    <section ref={ref} data-page={number} data-drawn={state === "drawn" ? "1" : "0"} className={`pdf-page${highlight.length ? " page-hit" : ""}`} style={{ width: size.w, height: size.h }} aria-label={`Page ${number}`}>
      <div className="pdf-page-label">{number}</div>
    </section>
  );
}

/** The stored layout's points (from the top-left of the page's visible
 * box, unrotated) → the drawn page's pixels, through pdf.js's viewport,
 * which applies the page's /Rotate and the scale. Null when the stored page
 * size is not the size pdf.js sees (then the text layer is matched). */
function toViewport(layout: LayoutPage, view: number[], viewport: pdfjs.PageViewport): ToDrawn | null {
  const [vx0, vy0, vx1, vy1] = view;
  if (!layout.width || !layout.height || Math.abs(layout.width - (vx1 - vx0)) > 1 || Math.abs(layout.height - (vy1 - vy0)) > 1) return null;
  return (x, y) => viewport.convertToViewportPoint(vx0 + x, vy1 - y) as [number, number];
}

/** One highlight box, positioned in the drawn page's pixels. */
function boxDiv(r: Rect): HTMLElement {
  const d = document.createElement("div");
  d.className = "pdf-box";
  d.style.left = `${r.left}px`;
  d.style.top = `${r.top}px`;
  d.style.width = `${r.width}px`;
  d.style.height = `${r.height}px`;
  return d;
}

/** Wraps the matched characters of each text-layer div in <mark class="pdf-mark">. */
function markItems(divs: HTMLElement[], strs: string[], m: SpanMatch, focus: boolean) {
  let first: HTMLElement | null = null;
  for (const r of m.ranges) {
    const div = divs[r.item];
    const s = strs[r.item];
    if (!div || s === undefined || div.textContent !== s) continue;
    const mark = document.createElement("mark");
    mark.className = "pdf-mark";
    mark.textContent = s.slice(r.start, r.end);
    div.replaceChildren(document.createTextNode(s.slice(0, r.start)), mark, document.createTextNode(s.slice(r.end)));
    first ??= mark;
  }
  if (focus) first?.scrollIntoView({ block: "center" });
}
