import type { Answer } from "../api";

/** The three outcomes of an answer (kb.Answer.outcome): an answer was
 * formed; evidence only (passages about the question were found and are
 * cited, but no answer could be formed from them without a model; not a
 * decline); declined (nothing in the scope answers it). */
export type Outcome = "answer" | "evidence" | "declined";

/** An answer's outcome; an answer from a server that does not say one
 * (stored before outcomes existed) is declined or an answer. */
export function answerOutcome(a: Pick<Answer, "declined"> & { outcome?: string }): Outcome {
  if (a.declined) return "declined";
  return a.outcome === "evidence" ? "evidence" : "answer";
}

/** The label an answer's outcome shows ("" for an answer: it needs none). */
export function outcomeLabel(o: Outcome): string {
  switch (o) {
    case "evidence":
      return "Evidence only: these passages are about the question, but no answer could be formed from them offline";
    case "declined":
      return "Declined: the documents do not answer this question";
  }
  return "";
}

/** Text as a formula is compared: without [n] citation markers, dashes
 * and minus signs alike, white space collapsed, no closing full stop. */
function normalise(s: string): string {
  return s
    .replace(/\s*\[\d+(?:\s*[,–-]\s*\d+)*\]/g, "")
    .replace(/[−–—]/g, "-")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.\s]+$/, "")
    .toLowerCase();
}

/** Says the answer text already states the formula (as formulaLine and
 * cellFormula write it into the text), so it need not be shown again. */
export function textHasFormula(text: string, formula: string | undefined): boolean {
  const f = normalise(formula ?? "");
  return f !== "" && normalise(text).includes(f);
}

/** The answer text without its lead paragraph when that paragraph states
 * the cells the answer shows as a table (the row's label and every value:
 * "Inventories (Current assets): 2025: 5,409 [1]"); the text as it is
 * otherwise. The lead's formula, if any, is then the formula box's to show. */
export function withoutCellsLead(text: string, cells: { row: string; value: string }[]): string {
  if (cells.length === 0) return text;
  const end = text.indexOf("\n\n");
  const lead = end >= 0 ? text.slice(0, end) : text;
  const states = lead.includes(cells[0].row) && cells.every((c) => lead.includes(c.value));
  if (!states) return text;
  return end >= 0 ? text.slice(end + 2) : "";
}
