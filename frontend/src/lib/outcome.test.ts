import { describe, expect, it } from "vitest";
import { answerOutcome, outcomeLabel, textHasFormula, withoutCellsLead } from "./outcome";

describe("answerOutcome", () => {
  it("reads the outcome, and derives it for answers that carry none", () => {
    expect(answerOutcome({ declined: false, outcome: "evidence" })).toBe("evidence");
    expect(answerOutcome({ declined: false, outcome: "answer" })).toBe("answer");
    expect(answerOutcome({ declined: true, outcome: "declined" })).toBe("declined");
    expect(answerOutcome({ declined: false })).toBe("answer");
    expect(answerOutcome({ declined: true })).toBe("declined");
    expect(answerOutcome({ declined: true, outcome: "evidence" })).toBe("declined");
    expect(outcomeLabel("answer")).toBe("");
    expect(outcomeLabel("evidence")).toMatch(/^Evidence only/);
  });
});

describe("textHasFormula", () => {
  const formula = "Change 2024 → 2025: 5,363 − 4,869 = +494 (+10.15 %).";
  it("finds the formula the text states, citations and spacing aside", () => {
    expect(textHasFormula("Net earnings: 2024: $ 4,869; 2025: $ 5,363 [1]. Change 2024 → 2025: 5,363 − 4,869 = +494 (+10.15 %).", formula)).toBe(true);
    expect(textHasFormula("Net earnings [1].\nChange 2024 → 2025:  5,363 − 4,869 = +494 (+10.15 %)", formula)).toBe(true);
    expect(textHasFormula("Margin 2025 = profit 2025 1,200 / sales 2025 4,800 = 0.25 (25 %). From the tables: …", "Margin 2025 = profit 2025 1,200 / sales 2025 4,800 = 0.25 (25 %)")).toBe(true);
  });
  it("does not find a formula the text leaves out, or another one", () => {
    expect(textHasFormula("Net earnings: 2024: $ 4,869; 2025: $ 5,363 [1]", formula)).toBe(false);
    expect(textHasFormula("Change 2024 → 2025: 5,363 − 4,869 = +495 (+10.17 %).", formula)).toBe(false);
    expect(textHasFormula("anything", "")).toBe(false);
    expect(textHasFormula("anything", undefined)).toBe(false);
  });
});

describe("withoutCellsLead", () => {
  const cells = [
    { row: "Merchandise inventories", value: "5,409" },
    { row: "Merchandise inventories", value: "5,209" },
  ];
  it("drops the lead paragraph that states the cells", () => {
    expect(withoutCellsLead("Merchandise inventories: 2025: 5,409; 2024: 5,209 [1]\n\nThe audit covers the balance sheets [2]", cells)).toBe("The audit covers the balance sheets [2]");
    expect(withoutCellsLead("Merchandise inventories: 2025: 5,409; 2024: 5,209 [1]", cells)).toBe("");
  });
  it("keeps text whose lead does not state every cell", () => {
    const t = "Merchandise inventories: 2025: 5,409 [1]\n\nMore [2]";
    expect(withoutCellsLead(t, cells)).toBe(t);
    expect(withoutCellsLead("Sentences first [1]\n\nMerchandise inventories 5,409 5,209", cells)).toBe("Sentences first [1]\n\nMerchandise inventories 5,409 5,209");
    expect(withoutCellsLead(t, [])).toBe(t);
  });
});
