import { describe, expect, it } from "vitest";
import { count, fileSize, importFraction, kindLabel, pageSpan, plainError, progressText, score, statusLabel } from "./format";

describe("statusLabel", () => {
  it("names every document status", () => {
    expect(statusLabel("ok")).toMatchObject({ label: "Ready", tone: "ok" });
    expect(statusLabel("failed").tone).toBe("bad");
    expect(statusLabel("needs_ocr").label).toBe("Needs OCR");
    expect(statusLabel("needs_password").label).toBe("Needs password");
    expect(statusLabel("pending").tone).toBe("busy");
    expect(statusLabel("something_new").label).toBe("something new");
  });
});

describe("plainError", () => {
  it("prefers a known code", () => {
    expect(plainError("pdf: xref: bad offset", "corrupt")).toMatch(/damaged/);
  });
  it("keeps the specific end of a wrapped error and makes a sentence", () => {
    expect(plainError("read a.pdf: pdf: malformed PDF: 256-bit encryption key")).toBe("Malformed PDF: 256-bit encryption key.");
    expect(plainError("not a PDF")).toBe("Not a PDF.");
    expect(plainError("read broken.pdf: pdf: not a PDF")).toBe("Not a PDF.");
    expect(plainError("read x.pdf: pdf: not a PDF", "not_pdf")).toBe("This file is not a PDF, although its name says so.");
    expect(plainError("")).toBe("");
  });
});

describe("pageSpan", () => {
  it("formats single pages and ranges", () => {
    expect(pageSpan(3, 3)).toBe("p. 3");
    expect(pageSpan(3, 4)).toBe("pp. 3–4");
    expect(pageSpan(0, 0)).toBe("");
  });
});

describe("count", () => {
  it.each([0, 1, 7, 999, 1000, 12345, 999999, 1000000, 123456789, -1, -1234, 0.5, 1.25, 1234.5678, 2.0004, -0.0001, 1e15, 9007199254740991, NaN, Infinity, -Infinity])(
    "writes %d as toLocaleString('en-US') does",
    (n) => expect(count(n)).toBe(n.toLocaleString("en-US")),
  );
  it("counts nothing as 0", () => expect(count(undefined)).toBe("0"));
});

describe("small formats", () => {
  it("formats kinds, counts, sizes and scores", () => {
    expect(kindLabel("pdf")).toBe("PDF");
    expect(kindLabel("", "x.DOCX")).toBe("DOCX");
    expect(count(12345)).toBe("12,345");
    expect(fileSize(2048)).toBe("2 KB");
    expect(fileSize(3 * 1024 * 1024)).toBe("3.0 MB");
    expect(score(0.03278)).toBe("0.033");
    expect(score(undefined)).toBe("");
  });
});

describe("import progress", () => {
  it("grows with files and stages", () => {
    expect(importFraction(null)).toBe(0);
    expect(importFraction({ index: 1, total: 4, stage: "reading" })).toBeCloseTo(0.0375);
    expect(importFraction({ index: 2, total: 4, stage: "done" })).toBe(0.5);
    expect(importFraction({ index: 4, total: 4, stage: "done" })).toBe(1);
  });
  it("says what is happening", () => {
    expect(progressText({ file: "/tmp/x/report.pdf", index: 2, total: 4, stage: "indexing" })).toBe("Indexing report.pdf (2 of 4)");
    expect(progressText({ file: "C:\\docs\\a.docx", index: 1, total: 1, stage: "done" })).toBe("Imported a.docx (1 of 1)");
  });
});
