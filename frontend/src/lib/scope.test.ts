import { describe, expect, it } from "vitest";
import { answerScopeText, askable, identityLine, keepSelected, scopeLabel, scopeOf, titleList, toggle } from "./scope";

const docs = [
  { id: 1, title: "X9 — Form 10-K 2018", file_name: "X9_2018_10K.pdf", status: "ok" },
  { id: 2, title: "", file_name: "notes.md", status: "ok" },
  { id: 3, title: "Scan", file_name: "scan.pdf", status: "needs_ocr" },
  { id: 4, title: "Broken", file_name: "broken.pdf", status: "failed" },
];

describe("selection", () => {
  it("toggles an id in and out, keeping the order", () => {
    expect(toggle([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggle([1, 2, 3], 2)).toEqual([1, 3]);
  });
  it("keeps only listed, askable documents, in the Library's order", () => {
    expect(keepSelected([4, 3, 9, 1], docs)).toEqual([1, 3]);
    expect(askable({ status: "pending" })).toBe(false);
  });
});

describe("scope", () => {
  it("takes the titles the Library shows now, the file name when untitled", () => {
    expect(scopeOf([2, 1], docs)).toEqual({ ids: [2, 1], titles: ["notes.md", "X9 — Form 10-K 2018"] });
  });
  it("drops documents no longer listed, and is null when none is", () => {
    expect(scopeOf([1, 99], docs)?.ids).toEqual([1]);
    expect(scopeOf([99], docs)).toBeNull();
  });
  it("labels the chip with the count and the titles", () => {
    expect(scopeLabel({ ids: [1, 2], titles: ["A", "B"] })).toBe("Asking 2 documents: A; B");
    expect(scopeLabel({ ids: [1], titles: ["A"] })).toBe("Asking 1 document: A");
    expect(scopeLabel({ ids: [1, 2, 3, 4, 5], titles: ["A", "B", "C", "D", "E"] })).toBe("Asking 5 documents: A; B; C and 2 more");
    expect(scopeLabel({ ids: [1], titles: ["A"] }, "Searching")).toBe("Searching 1 document: A");
  });
  it("lists at most max titles", () => {
    expect(titleList(["A", "B"], 1)).toBe("A and 1 more");
    expect(titleList([])).toBe("");
  });
});

describe("identityLine", () => {
  it("names organisation, kind and period", () => {
    expect(identityLine({ title: "Annual report", organisation: "Acme Corp", doc_type: "Form 10-K", period: "FY2018" })).toBe("Acme Corp · Form 10-K · FY2018");
  });
  it("leaves out what the title states and blank fields", () => {
    expect(identityLine({ title: "X9 — Form 10-K 2018", organisation: "X9", doc_type: "Form 10-K", period: "FY2018" })).toBe("FY2018");
    expect(identityLine({ title: "Notes", organisation: " ", doc_type: "" })).toBe("");
  });
});

describe("answerScopeText", () => {
  it("says where a routed question went and why", () => {
    expect(answerScopeText({ docs: [1], titles: ["X9 — Form 10-K 2018"], routed: true, because: ["X9", "2018"] })).toBe("Routed to: X9 — Form 10-K 2018 — because: X9, 2018");
  });
  it("says which documents the user chose", () => {
    expect(answerScopeText({ docs: [1, 2], titles: ["A", "B"] })).toBe("Asked within: A; B");
  });
  it("says nothing for the whole project", () => {
    expect(answerScopeText(null)).toBe("");
    expect(answerScopeText({ docs: [] })).toBe("");
  });
  it("names documents by id when their titles are missing", () => {
    expect(answerScopeText({ docs: [7], routed: true })).toBe("Routed to: Document 7");
  });
});
