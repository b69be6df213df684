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
