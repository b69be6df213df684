// Finding a document in a long list (the mind-map picker of a library of
// 100+ documents): every word of the query must begin a word of the
// document's title, organisation, kind, period or file name, in any order,
// ignoring case and accents. Pure.

export interface PickableDoc {
  id: number;
  title: string;
  file_name: string;
  organisation?: string;
  doc_type?: string;
  period?: string;
}

function words(s: string): string[] {
  return s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The documents matching query, in their order; all when it is blank. */
export function filterDocs<T extends PickableDoc>(docs: T[], query: string): T[] {
  const q = words(query);
  if (q.length === 0) return docs;
  return docs.filter((d) => {
    const have = words([d.title, d.organisation, d.doc_type, d.period, d.file_name].filter(Boolean).join(" "));
    return q.every((w) => have.some((h) => h.startsWith(w)));
  });
}
