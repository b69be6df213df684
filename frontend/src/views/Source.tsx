import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { api, errorMessage, has, originalSource, type Page } from "../api";
import { Icon, Marked, Notice } from "../components/ui";
import { kindLabel, pageSpan, plainError } from "../lib/format";
import { highlight, splitRanges, type Mark, type Segment } from "../lib/highlight";
import { locateSpan } from "../lib/offsets";
import type { MarkQuality } from "../components/PdfPages";

// pdf.js is large: load it only when a PDF is shown.
const PdfPages = lazy(() => import("../components/PdfPages"));

export interface SourceTarget {
  docId: number;
  title: string;
  kind?: string;
  /** The passage to highlight: byte span in the document text. */
  charStart?: number;
  charEnd?: number;
  pageStart?: number;
  pageEnd?: number;
  headingPath?: string[];
  /** The search whose matches to mark inside the passage (App.Marks decides them). */
  query?: string;
}

/** Segments of one page: the passage span marked, the query's marks (ranges
 * of the passage's text) marked inside it. */
export function pageSegments(text: string, span: { start: number; end: number } | undefined, marks: Mark[] | undefined): { segs: Segment[]; passage: boolean }[] {
  if (!span) return [{ segs: [{ text, hit: false }], passage: false }];
  const parts = splitRanges(text, [[span.start, span.end]]);
  return parts.map((p) => (p.hit ? { segs: highlight(p.text, marks), passage: true } : { segs: [{ text: p.text, hit: false }], passage: false }));
}

export default function SourceView({ target, onBack, backLabel, onAsk }: { target: SourceTarget; onBack: () => void; backLabel: string; onAsk?: () => void }) {
  const [pages, setPages] = useState<Page[] | null>(null);
  const [error, setError] = useState("");
  const pdf = target.kind === "pdf" ? originalSource(target.docId) : null;
  const canPdf = pdf !== null;
  const [layout, setLayout] = useState<"pages" | "text">(canPdf ? "pages" : "text");
  const [pdfError, setPdfError] = useState("");
  const [match, setMatch] = useState<MarkQuality | "">("");

  useEffect(() => {
    setLayout(canPdf ? "pages" : "text");
    setPdfError("");
    setMatch("");
  }, [target.docId, canPdf]);
  const firstMark = useRef<HTMLElement | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    setPages(null);
    setError("");
    api.documentPages(target.docId).then(
      (p) => live && setPages(p ?? []),
      (e) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [target.docId]);

  const spans = useMemo(() => {
    if (!pages || target.charStart === undefined || target.charEnd === undefined) return new Map<number, { start: number; end: number }>();
    return new Map(locateSpan(pages, target.charStart, target.charEnd).map((s) => [s.page, s]));
  }, [pages, target.charStart, target.charEnd]);

  // What the search matched inside the passage, page by page (the backend
  // decides, as search does).
  const [marks, setMarks] = useState<Map<number, Mark[]>>(new Map());
  useEffect(() => {
    setMarks(new Map());
    const query = target.query?.trim();
    if (!pages || !query || spans.size === 0 || !has("Marks")) return;
    let live = true;
    const byNum = new Map(pages.map((p) => [p.number, p]));
    const nums = [...spans.keys()];
    const texts = nums.map((n) => byNum.get(n)?.text.slice(spans.get(n)!.start, spans.get(n)!.end) ?? "");
    api.marks(query, texts).then(
      (ms) => live && setMarks(new Map(nums.map((n, i) => [n, ms[i]?.marks ?? []]))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [pages, spans, target.query]);

  const pdfHighlights = useMemo(() => {
    if (!pages) return [];
    const byNum = new Map(pages.map((p) => [p.number, p]));
    // Each page's part of the passage, with where it is in the page text and
    // the page's stored layout (its blocks' boxes mark it, when it has them).
    return [...spans.entries()]
      .map(([page, sp]) => ({ page, text: byNum.get(page)?.text.slice(sp.start, sp.end) ?? "", start: sp.start, end: sp.end, layout: byNum.get(page) }))
      .filter((h) => h.text.trim());
  }, [pages, spans]);

  // Scroll to the passage, or to the hit's first page when the span is unknown.
  useEffect(() => {
    if (!pages || layout !== "text") return;
    const el =
      firstMark.current ??
      (target.pageStart ? document.getElementById(`page-${target.pageStart}`) : null);
    if (el) el.scrollIntoView({ block: firstMark.current ? "center" : "start" });
    else scroller.current?.scrollTo?.({ top: 0 });
  }, [pages, spans, target.pageStart, layout]);

  firstMark.current = null;
  const span = pageSpan(target.pageStart, target.pageEnd);

  return (
    <div className="view source-view" data-testid="source">
      <header className="view-head source-head">
        <div>
          <button className="link back" onClick={onBack}>
            <Icon name="back" size={16} /> {backLabel}
          </button>
          <h1 className="source-title">{target.title}</h1>
          <p className="subtle">
            {kindLabel(target.kind)} · {pages ? `${pages.length} ${pages.length === 1 ? "page" : "pages"}` : "loading…"}
            {span && (
              <>
                {" "}
                · passage on <strong>{span}</strong>
              </>
            )}
          </p>
          {target.headingPath && target.headingPath.length > 0 && (
            <div className="crumbs">
              {target.headingPath.map((c, j) => (
                <span key={j} className="crumb">
                  {c}
                </span>
              ))}
            </div>
          )}
        </div>
        {onAsk && has("AskIn") && (
          <div className="head-actions">
            <button className="btn" onClick={onAsk} data-testid="ask-this-doc" title="Ask questions of this document only">
              <Icon name="ask" size={16} />
              Ask this document
            </button>
          </div>
        )}
      </header>

      {canPdf && (
        <div className="segmented" role="tablist" aria-label="Show">
          <button role="tab" aria-selected={layout === "pages"} className={layout === "pages" ? "on" : ""} onClick={() => setLayout("pages")} disabled={!!pdfError}>
            Pages
          </button>
          <button role="tab" aria-selected={layout === "text"} className={layout === "text" ? "on" : ""} onClick={() => setLayout("text")}>
            Extracted text
          </button>
          {layout === "pages" && match && match !== "exact" && match !== "box" && (
            <span className="subtle seg-note">{match === "none" ? "The passage could not be located on the page image; see Extracted text." : "The passage is marked approximately on the page image."}</span>
          )}
        </div>
      )}
      {error && <Notice tone="bad">{plainError(error)}</Notice>}
      {pdfError && <Notice tone="warn">The page images are not available: {plainError(pdfError)} Showing the extracted text.</Notice>}

      {layout === "pages" && canPdf ? (
        <div data-testid="source-pdf">
          {pdf && pages ? (
            <Suspense fallback={<p className="subtle">Loading the PDF viewer…</p>}>
              <PdfPages source={pdf} targetPage={target.pageStart ?? pdfHighlights[0]?.page} highlights={pdfHighlights} onMatched={(_, q) => setMatch(q)} />
            </Suspense>
          ) : (
            <p className="subtle">Opening the PDF…</p>
          )}
        </div>
      ) : (
      <div className="pages" ref={scroller} data-testid="source-pages">
        {pages?.map((p) => {
          const parts = pageSegments(p.text, spans.get(p.number), marks.get(p.number));
          return (
            <section key={p.number} id={`page-${p.number}`} className={`page${spans.has(p.number) ? " page-hit" : ""}`}>
              <div className="page-label">
                Page {p.number}
                {p.ocr && <span className="page-tag">OCR</span>}
              </div>
              {p.no_text && !p.text ? (
                <p className="subtle page-empty">
                  This page has no text layer (a scanned image)
                  {p.ocr_status === "pending"
                    ? "; it is read with OCR while indexing runs."
                    : p.ocr_status === "failed"
                      ? `; OCR stopped on it: ${p.ocr_note ?? ""}`
                      : p.ocr_status === "empty"
                        ? "; OCR found no reliable text on it."
                        : "."}
                </p>
              ) : (
                <div className="page-text">
                  {parts.map((part, i) =>
                    part.passage ? (
                      <mark
                        key={i}
                        className="passage"
                        ref={(el) => {
                          if (el && !firstMark.current) firstMark.current = el;
                        }}
                      >
                        <Marked segments={part.segs} />
                      </mark>
                    ) : (
                      <span key={i}>{part.segs[0].text}</span>
                    ),
                  )}
                </div>
              )}
            </section>
          );
        })}
        {pages && pages.length === 0 && !error && <p className="subtle">No text was extracted from this document.</p>}
      </div>
      )}
    </div>
  );
}
