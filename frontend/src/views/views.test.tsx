import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The views talk only to ../api; replace it with a fake backend.
const fake = vi.hoisted(() => ({
  removeDocuments: vi.fn(async () => undefined),
  documentPages: vi.fn(),
  search: vi.fn(),
  importPaths: vi.fn(async () => []),
  retryDocument: vi.fn(async () => []),
  reindex: vi.fn(async () => undefined),
  orphanedOriginals: vi.fn(async (): Promise<string[]> => []),
  repairOrphans: vi.fn(async () => []),
  marks: vi.fn(async (): Promise<{ marks: { start: number; end: number }[] }[]> => []),
  exportDocumentMarkdown: vi.fn(async (_id: number) => "=== page 1 ===\n# Instructions for Form 1040NR\n\n| Year | Rate |\n| --- | --- |\n"),
  saveTextFile: vi.fn(async (_name: string, _text: string) => "/home/me/Instructions for Form 1040NR.md"),
  editDocumentIdentity: vi.fn(async (id: number, e: { title: string }) => ({ id, ...e })),
  resetDocumentTitle: vi.fn(async (id: number) => ({ id })),
  answers: vi.fn(async () => []),
  searchIn: vi.fn(async () => ({ hits: [], info: { embedder: "", vectors: true } })),
  ask: vi.fn(),
  askIn: vi.fn(async (question: string, _deep: boolean, docs: number[]) => ({
    question,
    answer: "Lagos.",
    mode: "quick",
    citations: [],
    paths: [],
    trace: null,
    scope: { docs, titles: ["Harbor Bridge", "Mara Okafor"] },
  })),
  desktop: false, // canPickFiles: the desktop window (save dialog) or the browser (download)
}));

vi.mock("../api", () => ({
  api: fake,
  get canPickFiles() {
    return fake.desktop;
  },
  transport: "http",
  ASK_TOKEN: "ask:token",
  errorMessage: (e: unknown) => String(e),
  onEvent: () => () => {},
  has: (m: string) => ["RetryDocument", "Reindex", "OrphanedOriginals", "RepairOrphans", "Marks", "ExportDocumentMarkdown", "AskIn", "Ask", "Answers", "SearchIn", "EditDocumentIdentity", "ResetDocumentTitle"].includes(m),
}));

import LibraryView, { splitPaths, summarise } from "./Library";
import SearchView, { emptySearch, searchNote, snippetOf } from "./Search";
import SourceView, { pageSegments } from "./Source";
import AskView from "./Ask";
import type { Library } from "../library";

afterEach(cleanup);
beforeEach(() => vi.clearAllMocks());

function lib(over: Partial<Library> = {}): Library {
  return {
    info: { name: "Sample", dir: "/p", documents: 2, chunks: 10, embedder: { model: "", dim: 0 } } as Library["info"],
    mode: "offline",
    generation: 0,
    indexing: { running: false, last: null, eta: null, error: "" },
    docs: [
      { id: 1, title: "Instructions for Form 1040NR", file_name: "i1040nr.pdf", kind: "pdf", status: "ok", pages: 50, chunks: 312 },
      { id: 2, title: "scan.pdf", file_name: "scan.pdf", kind: "pdf", status: "needs_ocr", pages: 8, chunks: 0, error: "" },
      { id: 3, title: "broken.pdf", file_name: "broken.pdf", kind: "pdf", status: "failed", pages: 0, chunks: 0, error: "read broken.pdf: pdf: not a PDF", error_code: "not_pdf" },
    ] as unknown as Library["docs"],
    loaded: true,
    error: "",
    importing: { running: false, files: [], last: null, finished: 0 },
    lastDone: null,
    dismissDone: () => {},
    reload: vi.fn(async () => {}),
    ...over,
  };
}

describe("LibraryView", () => {
  it("lists documents with status chips and plain-words errors", () => {
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    expect(screen.getByText("Instructions for Form 1040NR")).toBeTruthy();
    expect(screen.getByText("Ready")).toBeTruthy();
    expect(screen.getByText("Needs OCR")).toBeTruthy();
    expect(screen.getByText("Failed")).toBeTruthy();
    expect(screen.getByText("This file is not a PDF, although its name says so.")).toBeTruthy();
    expect(screen.getByText(/scanned images/)).toBeTruthy();
    expect(screen.getByText("312")).toBeTruthy();
  });

  it("exports a ready document as Markdown: a download in the browser, the save dialog on the desktop", async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => (blobs.push(b), "blob:x"));
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    fake.desktop = false;
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    // Only a readable document offers it.
    expect(screen.getAllByTestId("export-md")).toHaveLength(1);
    expect(screen.queryByLabelText("Export broken.pdf as Markdown")).toBeNull();
    await act(async () => fireEvent.click(screen.getByLabelText("Export Instructions for Form 1040NR as Markdown")));
    expect(fake.exportDocumentMarkdown).toHaveBeenCalledWith(1);
    expect(names).toEqual(["Instructions for Form 1040NR.md"]);
    expect(blobs[0].type).toBe("text/markdown");
    expect(await blobs[0].text()).toContain("\n# Instructions for Form 1040NR\n");
    expect(fake.saveTextFile).not.toHaveBeenCalled();
    expect(screen.getByTestId("export-saved").textContent).toBe("Downloaded Instructions for Form 1040NR.md.");
    cleanup();

    fake.desktop = true;
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    await act(async () => fireEvent.click(screen.getByLabelText("Export Instructions for Form 1040NR as Markdown")));
    expect(fake.saveTextFile).toHaveBeenCalledWith("Instructions for Form 1040NR.md", expect.stringContaining("| --- | --- |"));
    expect(names).toHaveLength(1); // no download on the desktop
    expect(screen.getByTestId("export-saved").textContent).toBe("Saved to /home/me/Instructions for Form 1040NR.md.");
    fake.desktop = false;
    click.mockRestore();
  });

  it("says why an export failed", async () => {
    fake.exportDocumentMarkdown.mockRejectedValueOnce("document 1 is not in this project");
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    await act(async () => fireEvent.click(screen.getByLabelText("Export Instructions for Form 1040NR as Markdown")));
    expect(screen.getByRole("alert").textContent).toContain("not in this project");
  });

  it("asks the selected documents: only those that were read can be selected", () => {
    const onAsk = vi.fn();
    render(<LibraryView lib={lib()} onOpen={() => {}} onAsk={onAsk} />);
    const boxes = screen.getAllByTestId("doc-select") as HTMLInputElement[];
    expect(boxes.map((b) => b.disabled)).toEqual([false, false, true]);
    expect(screen.queryByTestId("ask-selected")).toBeNull();
    fireEvent.click(boxes[0]);
    fireEvent.click(boxes[1]);
    expect(screen.getByTestId("selection-count").textContent).toBe("2 documents selected");
    fireEvent.click(screen.getByTestId("ask-selected"));
    expect(screen.getByTestId("ask-selected").textContent).toBe("Ask these 2");
    expect(onAsk.mock.calls[0][0].map((d: { id: number }) => d.id)).toEqual([1, 2]);
    fireEvent.click(screen.getByTestId("selection-clear"));
    expect(screen.queryByTestId("ask-selected")).toBeNull();
    // Select all takes the askable ones; one document is asked from its row.
    fireEvent.click(screen.getByTestId("doc-select-all"));
    expect(screen.getByTestId("selection-count").textContent).toBe("2 documents selected");
    fireEvent.click(screen.getByLabelText("Ask Instructions for Form 1040NR"));
    expect(onAsk.mock.calls[1][0].map((d: { id: number }) => d.id)).toEqual([1]);
  });

  it("shows a document's organisation, kind and period, and renames it in place", async () => {
    const l = lib();
    l.docs[0] = { ...l.docs[0], title: "Instructions", organisation: "IRS", doc_type: "Instructions", period: "2024" } as (typeof l.docs)[0];
    render(<LibraryView lib={l} onOpen={() => {}} onAsk={() => {}} />);
    expect(screen.getAllByTestId("doc-identity")[0].textContent).toBe("IRS · 2024");
    fireEvent.click(screen.getByLabelText("Rename Instructions"));
    fireEvent.change(screen.getByTestId("identity-title"), { target: { value: "IRS — 1040NR instructions" } });
    fireEvent.change(screen.getByTestId("identity-period"), { target: { value: "TY2024" } });
    await act(async () => fireEvent.click(screen.getByTestId("identity-save")));
    expect(fake.editDocumentIdentity).toHaveBeenCalledWith(1, { title: "IRS — 1040NR instructions", organisation: "IRS", doc_type: "Instructions", period: "TY2024" });
    expect(l.reload).toHaveBeenCalled();
    expect(screen.queryByTestId("identity-form")).toBeNull();
  });

  it("gives a renamed document Cairn's title back", async () => {
    const l = lib();
    l.docs[0] = { ...l.docs[0], identity_edited: true } as (typeof l.docs)[0];
    render(<LibraryView lib={l} onOpen={() => {}} onAsk={() => {}} />);
    expect(screen.getAllByTestId("doc-identity")[0].textContent).toBe("renamed");
    fireEvent.click(screen.getByLabelText("Rename Instructions for Form 1040NR"));
    await act(async () => fireEvent.click(screen.getByTestId("identity-reset")));
    expect(fake.resetDocumentTitle).toHaveBeenCalledWith(1);
  });

  it("asks before removing, then removes", async () => {
    const l = lib();
    render(<LibraryView lib={l} onOpen={() => {}} />);
    fireEvent.click(screen.getByLabelText("Remove Instructions for Form 1040NR"));
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(fake.removeDocuments).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Remove" })));
    expect(fake.removeDocuments).toHaveBeenCalledWith([1]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("offers to import again the originals no document references", async () => {
    fake.orphanedOriginals.mockResolvedValueOnce(["files/0123456789ab-ferry.txt"]);
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    const notice = await screen.findByTestId("orphans-notice");
    expect(notice.textContent).toContain("1 original in the project folder is not in the library");
    await act(async () => fireEvent.click(screen.getByTestId("repair-orphans")));
    expect(fake.repairOrphans).toHaveBeenCalled();
  });

  it("cancelling the confirmation removes nothing", () => {
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    fireEvent.click(screen.getByLabelText("Remove scan.pdf"));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(fake.removeDocuments).not.toHaveBeenCalled();
  });

  it("imports typed server-side paths in serve mode", async () => {
    render(<LibraryView lib={lib()} onOpen={() => {}} />);
    fireEvent.click(screen.getByTestId("import-button"));
    fireEvent.change(screen.getByLabelText(/Files or folders/), { target: { value: "/a/x.pdf\n\n  /a/folder  \n" } });
    await act(async () => fireEvent.click(screen.getByTestId("import-submit")));
    expect(fake.importPaths).toHaveBeenCalledWith(["/a/x.pdf", "/a/folder"]);
  });

  it("shows import progress", () => {
    render(
      <LibraryView
        lib={lib({ importing: { running: true, files: ["/a.pdf", "/b.pdf"], last: { file: "/x/b.pdf", index: 2, total: 2, stage: "indexing" } as any, finished: 1 } })}
        onOpen={() => {}}
      />,
    );
    expect(screen.getByText("Indexing b.pdf (2 of 2)")).toBeTruthy();
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("88");
  });

  it("shows an empty state", () => {
    render(<LibraryView lib={lib({ docs: [] })} onOpen={() => {}} />);
    expect(screen.getByText("No documents yet")).toBeTruthy();
  });

  it("summarises an import", () => {
    expect(summarise({ results: [{ status: "ok" }, { status: "ok" }, { status: "needs_ocr" }] as any })).toBe("3 files processed: 2 ready, 1 needs ocr.");
    expect(splitPaths(' "/a b/c.pdf" \n')).toEqual(["/a b/c.pdf"]);
  });
});

describe("SearchView", () => {
  it("runs a search and shows titles, page spans, breadcrumbs and marked terms", async () => {
    fake.search.mockResolvedValue({
      hits: [
        {
          id: 9, doc_id: 1, doc_title: "Form 1040NR", page_start: 3, page_end: 4, char_start: 0, char_end: 10,
          heading_path: ["Itemized Deductions", "State taxes"], text: "full text", snippet: "You can deduct state income taxes.", score: 0.0328,
        },
      ],
      info: { embedder: "cairn-hash-v1-1024", vectors: true },
    });
    // The backend's marks for the snippet (analyze.Marks: "deduction" matches "deduct" by its stem).
    fake.marks.mockResolvedValue([{ marks: [{ start: 8, end: 14 }, { start: 28, end: 33 }] }]);
    let state = emptySearch;
    const setState = (s: typeof state) => (state = s);
    const { rerender } = render(<SearchView state={state} setState={setState} hasDocuments onOpen={() => {}} />);
    state = { ...state, query: "deduction taxes" };
    rerender(<SearchView state={state} setState={setState} hasDocuments onOpen={() => {}} />);
    await act(async () => fireEvent.submit(screen.getByRole("search")));
    rerender(<SearchView state={state} setState={setState} hasDocuments onOpen={() => {}} />);
    expect(fake.search).toHaveBeenCalledWith("deduction taxes", 20);
    expect(fake.marks).toHaveBeenCalledWith("deduction taxes", ["You can deduct state income taxes."]);
    expect(screen.getByText("Form 1040NR")).toBeTruthy();
    expect(screen.getByText("pp. 3–4")).toBeTruthy();
    expect(screen.getByText("State taxes")).toBeTruthy();
    const marks = Array.from(document.querySelectorAll("mark.term")).map((m) => m.textContent);
    expect(marks).toEqual(["deduct", "taxes"]);
    expect(screen.queryByTestId("search-note")).toBeNull(); // the query was embedded
  });

  it("says when the query was not embedded (keywords only), from App.Search's info", async () => {
    const note = "the query was not embedded: ollama: connection refused; passages were ranked by keywords only";
    fake.search.mockResolvedValue({
      hits: [{ id: 1, doc_id: 1, doc_title: "DMCA", page_start: 1, page_end: 1, char_start: 0, char_end: 4, text: "text", snippet: "text", score: 0.01 }],
      info: { embedder: "ollama:bge-m3", vectors: false, note },
    });
    let state = { ...emptySearch, query: "circumvention" };
    const setState = (s: typeof state) => (state = s);
    const { rerender } = render(<SearchView state={state} setState={setState} hasDocuments onOpen={() => {}} />);
    await act(async () => fireEvent.submit(screen.getByRole("search")));
    rerender(<SearchView state={state} setState={setState} hasDocuments onOpen={() => {}} />);
    expect(state.why).toBe(note);
    const shown = screen.getByTestId("search-note");
    expect(shown.textContent).toContain("Ranked by keywords only: the query could not be embedded with bge-m3, the project's embedding model.");
    expect(shown.querySelector("details")!.textContent).toContain("ollama: connection refused");
    expect(searchNote({ embedder: "ollama:bge-m3", vectors: false }).note).toMatch(/keywords only/);
    expect(searchNote({ embedder: "cairn-hash-v1-1024", vectors: true, note: "" })).toEqual({ note: "", why: "" });
    expect(searchNote(null)).toEqual({ note: "", why: "" });
  });

  it("prefers the snippet and trims long text", () => {
    expect(snippetOf({ snippet: "a\fb  c", text: "zzz" } as any)).toBe("a b c");
    expect(snippetOf({ text: "word ".repeat(100) } as any, 20)).toBe("word word word word…");
  });
});

describe("SourceView", () => {
  it("marks the passage on the right page using byte offsets", async () => {
    const pages = [
      { doc_id: 1, number: 1, char_start: 0, text: "总则 第一条" },
      { doc_id: 1, number: 2, char_start: 17, text: "民事主体的人身权利受法律保护。" },
    ];
    fake.documentPages.mockResolvedValue(pages);
    fake.marks.mockResolvedValue([{ marks: [{ start: 2, end: 4 }] }]); // "权利" in the passage "人身权利"
    const enc = new TextEncoder();
    const doc = pages.map((p) => p.text).join("\f");
    const start = enc.encode(doc.slice(0, doc.indexOf("人身权利"))).length;
    const end = start + enc.encode("人身权利").length;
    Element.prototype.scrollIntoView = vi.fn();
    render(
      <SourceView
        target={{ docId: 1, title: "民法典", kind: "docx", charStart: start, charEnd: end, pageStart: 2, pageEnd: 2, query: "权利" }}
        backLabel="Back to results"
        onBack={() => {}}
      />,
    );
    await waitFor(() => expect(document.querySelector("mark.passage")).toBeTruthy());
    expect(document.querySelector("mark.passage")!.textContent).toBe("人身权利");
    expect(document.querySelector("#page-2 mark.passage")).toBeTruthy();
    await waitFor(() => expect(document.querySelector("mark.passage mark.term")?.textContent).toBe("权利"));
    expect(fake.marks).toHaveBeenCalledWith("权利", ["人身权利"]);
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
  });

  it("splits a page into passage and plain parts", () => {
    const parts = pageSegments("abcdef", { start: 2, end: 4 }, []);
    expect(parts.map((p) => [p.passage, p.segs.map((s) => s.text).join("")])).toEqual([
      [false, "ab"],
      [true, "cd"],
      [false, "ef"],
    ]);
  });
});

describe("LibraryView: retry and passwords", () => {
  it("asks for the password of an encrypted PDF and retries with it", async () => {
    const docs = [{ id: 7, title: "locked.pdf", file_name: "locked.pdf", kind: "pdf", status: "needs_password", pages: 0, chunks: 0 }] as Library["docs"];
    render(<LibraryView lib={lib({ docs })} onOpen={() => {}} />);
    fireEvent.click(screen.getByLabelText("Enter the password of locked.pdf"));
    fireEvent.change(screen.getByTestId("password-input"), { target: { value: "secret" } });
    fireEvent.click(screen.getByRole("button", { name: "Unlock" }));
    await waitFor(() => expect(fake.retryDocument).toHaveBeenCalledWith(7, "secret"));
  });
  it("retries a failed document without a password", async () => {
    const docs = [{ id: 3, title: "broken.pdf", file_name: "broken.pdf", kind: "pdf", status: "failed", pages: 0, chunks: 0 }] as Library["docs"];
    render(<LibraryView lib={lib({ docs })} onOpen={() => {}} />);
    fireEvent.click(screen.getByLabelText("Retry broken.pdf"));
    await waitFor(() => expect(fake.retryDocument).toHaveBeenCalledWith(3, ""));
  });
  it("shows indexing progress with a time estimate", () => {
    render(<LibraryView lib={lib({ indexing: { running: true, last: { stage: "mindmap", done: 3, total: 12 }, eta: 200, error: "" } })} onOpen={() => {}} />);
    const card = screen.getByTestId("index-progress");
    expect(card.textContent).toContain("Drawing mind maps");
    expect(card.textContent).toContain("3 of 12");
    expect(card.textContent).toContain("about 3 min left");
  });
});

import { planSteps } from "./Ask";
import type { Trace } from "../api";
describe("planSteps", () => {
  it("reads the reasoner's plan (op with a question, a triple or an expression)", () => {
    const trace = { plan: { steps: [{ id: 1, op: "retrieval", subject: "DMCA", predicate: "enacted in", object: "?" }, { id: 2, op: "output", question: "When was it enacted?" }, { id: 3, op: "math", expr: "a-b" }, { id: 4, op: "sort" }] } } as unknown as Trace;
    expect(planSteps(trace)).toEqual(["retrieval: DMCA · enacted in · ?", "output: When was it enacted?", "math: a-b", "sort"]);
    expect(planSteps(null)).toEqual([]);
    expect(planSteps({ mode: "quick" } as unknown as Trace)).toEqual([]);
  });
});

import { ReasoningPanel } from "./Ask";
describe("ReasoningPanel", () => {
  it("scales a path wider than the panel to fit it (third node of a two-edge path included)", () => {
    const s = { doc_id: 1, chunk_id: 1, page_start: 1, page_end: 1, char_start: 0, char_end: 5 };
    const answer = { question: "q", answer: "a", declined: false, outcome: "answer", mode: "quick", citations: [], trace: null, paths: [{ score: 1, chosen: true, nodes: ["Femmes de Sade", "Alex de Renzy", "Buenos Aires"], edges: [{ from: "Femmes de Sade", to: "Alex de Renzy", predicate: "directed by", source: s }, { from: "Alex de Renzy", to: "Buenos Aires", predicate: "born in", source: s }] }] };
    render(<ReasoningPanel answer={answer} onOpenSource={() => {}} onShowInGraph={() => {}} />);
    const svg = screen.getByTestId("path-graph");
    expect(svg.getAttribute("width")).toBe("100%");
    const vb = svg.getAttribute("viewBox")!.split(" ").map(Number);
    const labels = [...svg.querySelectorAll("g.pnode")].map((g) => Number(/translate\(([\d.]+)/.exec(g.getAttribute("transform")!)![1]));
    expect(labels).toHaveLength(3);
    for (const x of labels) expect(x).toBeLessThan(vb[2]);
    cleanup();
  });
});

describe("AskView", () => {
  it("asks within the scope the chip names, says so on the answer, and × clears it", async () => {
    const clear = vi.fn();
    render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} scope={{ ids: [4, 5], titles: ["Harbor Bridge", "Mara Okafor"] }} onClearScope={clear} />);
    expect(screen.getByTestId("scope-chip").textContent).toContain("Asking 2 documents: Harbor Bridge; Mara Okafor");
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "Where was the designer born?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
    expect(fake.askIn).toHaveBeenCalledWith("Where was the designer born?", false, [4, 5]);
    expect(fake.ask).not.toHaveBeenCalled();
    expect(screen.getByTestId("answer-scope").textContent).toBe("Asked within: Harbor Bridge; Mara Okafor");
    fireEvent.click(screen.getByTestId("scope-clear"));
    expect(clear).toHaveBeenCalled();
  });

  it("shows where a routed answer went and why", async () => {
    fake.ask.mockResolvedValueOnce({ question: "q", answer: "x", mode: "quick", citations: [], paths: [], trace: null, scope: { docs: [1], titles: ["X9 — Form 10-K 2018"], routed: true, because: ["X9", "2018"] } });
    render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} />);
    expect(screen.queryByTestId("scope-chip")).toBeNull();
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "X9 capex 2018?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
    expect(fake.ask).toHaveBeenCalledWith("X9 capex 2018?", false);
    const s = screen.getByTestId("answer-scope");
    expect(s.textContent).toBe("Routed to: X9 — Form 10-K 2018 — because: X9, 2018");
    expect(s.getAttribute("data-routed")).toBe("1");
  });

  it("says while indexing runs that answers rest on what is indexed so far", () => {
    const running = { running: true, last: { stage: "graph", done: 3, total: 40 } as never, eta: 12, error: "" };
    const { rerender } = render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} indexing={running} />);
    expect(screen.getByTestId("ask-indexing").textContent).toContain("Indexing is still running (Building the knowledge graph)");
    rerender(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} indexing={{ ...running, running: false }} />);
    expect(screen.queryByTestId("ask-indexing")).toBeNull();
  });
});

describe("AskView: figures from a table", () => {
  it("shows the cells an answer read, each opening its row, and the arithmetic", async () => {
    const row = { n: 1, doc_id: 1, chunk_id: 9, page_start: 60, page_end: 60, char_start: 10, char_end: 60, doc_title: "Widgetco — Annual report 2025", text: "Net earnings | $ 5,363 | $ 4,869" };
    fake.ask.mockResolvedValueOnce({
      question: "q",
      answer: "Net earnings: 2024: $ 4,869; 2025: $ 5,363 [1]",
      mode: "quick",
      citations: [row],
      paths: [],
      trace: null,
      cells: [
        { n: 1, row: "Net earnings", section: "Flows from Making Things", column: "2024", unit: "(Thousands)", value: "$ 4,869", number: 4869, year: 2024 },
        { n: 1, row: "Net earnings", section: "Flows from Making Things", column: "2025", unit: "(Thousands)", value: "$ 5,363", number: 5363, year: 2025 },
      ],
      formula: "Change 2024 → 2025: 5,363 − 4,869 = +494 (+10.15 %).",
    });
    const opened: unknown[] = [];
    render(<AskView onOpenSource={(s) => opened.push(s)} onShowInGraph={() => {}} focusKey={0} />);
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "Net earnings 2024 to 2025?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
    const cells = screen.getAllByTestId("answer-cell");
    expect(cells).toHaveLength(2);
    expect(cells[1].textContent).toContain("Net earnings");
    expect(cells[1].textContent).toContain("$ 5,363");
    expect(screen.getByTestId("answer-cells").textContent).toContain("(Thousands)");
    expect(screen.getByTestId("answer-formula").textContent).toBe("Change 2024 → 2025: 5,363 − 4,869 = +494 (+10.15 %).");
    fireEvent.click(screen.getByText("$ 5,363"));
    expect(opened).toEqual([row]);
  });
});

describe("AskView: a ranked row and a row found by its figures", () => {
  it("says where the row ranks and which row of another table named it", async () => {
    const row = { n: 1, doc_id: 1, chunk_id: 9, page_start: 85, page_end: 85, char_start: 0, char_end: 30, doc_title: "Widgetco — Annual report 2025", text: "Gear swaps | 32,502 | 26,288" };
    fake.ask.mockResolvedValueOnce({
      question: "q",
      answer: "Gear swaps — the highest of 4 rows (2025: 32,502) [1]",
      mode: "quick",
      outcome: "answer",
      citations: [row],
      paths: [],
      trace: null,
      cells: [{ n: 1, row: "Gear swaps", column: "2025", value: "32,502", number: 32502, year: 2025, rank: "highest of 4 rows", via: "Swaps outstanding" }],
    });
    render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} />);
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "Which swap had the highest notional value in 2025?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
    expect(screen.getByTestId("answer-cell-rank").textContent).toContain("highest of 4 rows");
    expect(screen.getByTestId("answer-cell-via").textContent).toContain("Swaps outstanding");
  });
});

describe("AskView: the formula once", () => {
  const row = { n: 1, doc_id: 1, chunk_id: 9, page_start: 60, page_end: 60, char_start: 10, char_end: 60, doc_title: "Widgetco — Annual report 2025", text: "Net earnings | $ 5,363 | $ 4,869" };
  const cells = [
    { n: 1, row: "Net earnings", column: "2024", value: "$ 4,869", number: 4869, year: 2024 },
    { n: 1, row: "Net earnings", column: "2025", value: "$ 5,363", number: 5363, year: 2025 },
  ];
  const formula = "Change 2024 → 2025: 5,363 − 4,869 = +494 (+10.15 %).";
  async function askFor(answer: string) {
    fake.ask.mockResolvedValueOnce({ question: "q", answer, mode: "quick", outcome: "answer", citations: [row], paths: [], trace: null, cells, formula });
    render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} />);
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "How did net earnings change from 2024 to 2025?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
  }
  it("shows the cells and the formula once when the text's lead states them", async () => {
    await askFor("Net earnings: 2024: $ 4,869; 2025: $ 5,363 [1]. " + formula + "\n\nThe year's sales grew in every region [1].");
    expect(screen.getAllByTestId("answer-cell")).toHaveLength(2);
    expect(screen.getByTestId("answer-formula").textContent).toBe(formula);
    const text = screen.getByTestId("answer").textContent!;
    expect(text.split("5,363 − 4,869").length - 1).toBe(1);
    expect(text).not.toContain("Net earnings: 2024");
    expect(text).toContain("The year's sales grew");
  });
  it("shows no formula box when the text states the formula outside a lead of cells", async () => {
    await askFor("The year's sales grew in every region [1].\n\n" + formula);
    expect(screen.queryByTestId("answer-formula")).toBeNull();
    expect(screen.getByTestId("answer").textContent!.split("5,363 − 4,869").length - 1).toBe(1);
  });
  it("shows the formula box when the text does not state it", async () => {
    await askFor("Net earnings: 2024: $ 4,869; 2025: $ 5,363 [1]");
    expect(screen.getByTestId("answer-formula").textContent).toBe(formula);
  });
});

describe("AskView: outcomes", () => {
  const passage = { n: 1, doc_id: 2, chunk_id: 7, page_start: 12, page_end: 13, char_start: 0, char_end: 40, doc_title: "Alderbrook town notes", text: "The ferry crosses the wide river below the town." };
  async function askFor(a: object) {
    fake.ask.mockResolvedValueOnce({ question: "q", mode: "quick", paths: [], trace: null, ...a });
    render(<AskView onOpenSource={() => {}} onShowInGraph={() => {}} focusKey={0} />);
    fireEvent.change(screen.getByTestId("ask-input"), { target: { value: "In what year did the ferry first cross?" } });
    await act(async () => fireEvent.click(screen.getByTestId("ask-submit")));
  }
  it("labels evidence only, lists its passages, and is no decline", async () => {
    await askFor({ answer: "Evidence only: the passages on pp. 12–13 of Alderbrook town notes are about this question … The ferry crosses the wide river below the town. [1]", declined: false, outcome: "evidence", citations: [passage] });
    const label = screen.getByTestId("answer-outcome");
    expect(label.textContent).toMatch(/^Evidence only/);
    expect(label.className).toContain("evidence");
    expect(screen.getByTestId("answer").getAttribute("data-outcome")).toBe("evidence");
    expect(screen.getByTestId("answer").className).not.toContain("declined");
    // "evidence" is the passages' grid: on the answer it laid the label
    // and the text out as two columns.
    expect(screen.getByTestId("answer").classList.contains("evidence")).toBe(false);
    expect(label.classList.contains("evidence")).toBe(false);
    expect(screen.getByText("Passages about the question")).toBeTruthy();
    expect(screen.getAllByTestId("evidence")).toHaveLength(1);
  });
  it("labels a decline apart from evidence only", async () => {
    await askFor({ answer: "The documents do not answer this question. Searched: the whole project.", declined: true, outcome: "declined", citations: [passage] });
    const label = screen.getByTestId("answer-outcome");
    expect(label.textContent).toMatch(/^Declined/);
    expect(label.className).toContain("declined");
    expect(screen.getByTestId("answer").className).toContain("declined");
    expect(screen.queryByTestId("evidence")).toBeNull();
  });
  it("labels nothing on an answer, nor on an old answer without an outcome", async () => {
    await askFor({ answer: "Oren Vasek [1].", declined: false, citations: [passage] });
    expect(screen.queryByTestId("answer-outcome")).toBeNull();
    expect(screen.getByTestId("answer").getAttribute("data-outcome")).toBe("answer");
  });
});

describe("SearchView within a scope", () => {
  it("searches the chip's documents and runs again when the scope changes", async () => {
    let state = { ...emptySearch, query: "bridge" };
    const setState = (st: typeof state) => (state = st);
    const props = { setState, hasDocuments: true, onOpen: () => {}, onClearScope: () => {} };
    const { rerender } = render(<SearchView {...props} state={state} scope={{ ids: [4, 5], titles: ["A", "B"] }} />);
    expect(screen.getByTestId("scope-chip").textContent).toContain("Searching 2 documents: A; B");
    await act(async () => fireEvent.submit(screen.getByRole("search")));
    expect(fake.searchIn).toHaveBeenCalledWith("bridge", 20, [4, 5]);
    expect(state.within).toBe("4,5");
    await act(async () => rerender(<SearchView {...props} state={state} scope={{ ids: [4], titles: ["A"] }} />));
    expect(fake.searchIn).toHaveBeenLastCalledWith("bridge", 20, [4]);
  });
});
