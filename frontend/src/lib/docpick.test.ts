import { describe, expect, it } from "vitest";
import { filterDocs } from "./docpick";

const docs = [
  { id: 1, title: "Lumen Bank — Form 10-K FY2019", file_name: "LUMEN_2019_10K.pdf", organisation: "Lumen Bank", doc_type: "Form 10-K", period: "FY2019" },
  { id: 2, title: "Orvale Mining — Quarterly report Q2 2023", file_name: "orvale-q2.pdf", organisation: "Orvale Mining" },
  { id: 3, title: "Société Générale d’Essai", file_name: "essai.docx" },
];

describe("filterDocs", () => {
  it.each([
    ["", [1, 2, 3]],
    ["  ", [1, 2, 3]],
    ["lumen", [1]],
    ["10-k 2019", [1]],
    ["fy2019 lum", [1]],
    ["q2 orvale", [2]],
    ["societe", [3]],
    ["essai.docx", [3]],
    ["umen", []],
    ["mining 2019", []],
  ])("%j → %j", (q, want) => {
    expect(filterDocs(docs, q as string).map((d) => d.id)).toEqual(want);
  });
});
