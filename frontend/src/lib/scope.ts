// Scope and document identity, as the Library and the Ask view show them:
// which documents a question is aimed at (the Library's selection, or one
// document), the line naming a document's organisation, kind and period,
// and what an answer says of the documents it was asked or routed to.

/** What a scope needs of a document. */
export interface ScopeDoc {
  id: number;
  title: string;
  file_name: string;
  status: string;
}

/** What an identity line needs of a document. */
export interface IdentityFields {
  title: string;
  organisation?: string;
  doc_type?: string;
  period?: string;
}

/** kb.Scope as an answer carries it. */
export interface AnswerScope {
  docs?: number[] | null;
  titles?: string[] | null;
  routed?: boolean;
  because?: string[] | null;
}

/** The documents a question is aimed at: their ids and titles. */
export interface Scope {
  ids: number[];
  titles: string[];
}

/** Only documents that were read can be asked (ready, or ready but scanned). */
export function askable(d: { status: string }): boolean {
  return d.status === "ok" || d.status === "needs_ocr";
}

/** The title a document is shown by. */
export function docTitle(d: { title: string; file_name: string }): string {
  return d.title || d.file_name;
}

/** ids with id added, or removed when it is there. */
export function toggle(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}

/** The selection kept to the documents still listed and askable, in the
 * Library's order (documents removed or failed drop out of it). */
export function keepSelected(ids: readonly number[], docs: readonly ScopeDoc[]): number[] {
  const want = new Set(ids);
  return docs.filter((d) => want.has(d.id) && askable(d)).map((d) => d.id);
}

/** The scope of ids, with the titles the Library shows now (a rename shows
 * at once); null when none of them is listed any more. */
export function scopeOf(ids: readonly number[], docs: readonly ScopeDoc[]): Scope | null {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const kept = ids.filter((id) => byId.has(id));
  if (kept.length === 0) return null;
  return { ids: kept, titles: kept.map((id) => docTitle(byId.get(id)!)) };
}

/** "A; B; C and 2 more": at most max titles, then how many more. */
export function titleList(titles: readonly string[], max = 3): string {
  const shown = titles.slice(0, max).join("; ");
  const more = titles.length - max;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/** "2 documents", "1 document". */
export function docCount(n: number): string {
  return `${n} ${n === 1 ? "document" : "documents"}`;
}

/** The scope chip's words: "Asking 2 documents: A; B" ("Searching …" in Search). */
export function scopeLabel(s: Scope, verb = "Asking"): string {
  return `${verb} ${docCount(s.ids.length)}: ${titleList(s.titles)}`;
}

/** A document's organisation, kind and period, as the Library shows them
 * under its title ("X9 · Form 10-K · FY2018"); a field the title already
 * states in full is left out, so "X9 — Form 10-K 2018" gets "FY2018"
 * only when its period is written differently. "" when nothing is left. */
export function identityLine(d: IdentityFields): string {
  const title = d.title.toLowerCase();
  return [d.organisation, d.doc_type, d.period]
    .map((s) => (s ?? "").trim())
    .filter((s) => s && !title.includes(s.toLowerCase()))
    .join(" · ");
}

/** What an answer says of its scope: "Routed to: A — because: X9, 2018"
 * when the question named its documents, "Asked within: A; B" when the user
 * chose them, "" for the whole project. */
export function answerScopeText(s: AnswerScope | null | undefined): string {
  if (!s || !s.docs || s.docs.length === 0) return "";
  const titles = titleList(s.titles?.length ? s.titles : s.docs.map((id) => `Document ${id}`));
  if (!s.routed) return `Asked within: ${titles}`;
  const because = (s.because ?? []).filter(Boolean);
  return `Routed to: ${titles}${because.length ? ` — because: ${because.join(", ")}` : ""}`;
}
