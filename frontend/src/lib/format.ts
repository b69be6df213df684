// Labels and small formatting rules shared by the views: pure and tested.

export type Tone = "ok" | "warn" | "bad" | "muted" | "busy";

export interface StatusLabel {
  label: string;
  tone: Tone;
  /** One sentence for people, shown when there is no more specific error. */
  help: string;
}

const STATUS: Record<string, StatusLabel> = {
  ok: { label: "Ready", tone: "ok", help: "Text extracted and indexed." },
  pending: { label: "Indexing", tone: "busy", help: "Not indexed yet: the import was interrupted or is still running." },
  failed: { label: "Failed", tone: "bad", help: "Cairn could not read this file." },
  needs_ocr: {
    label: "Needs OCR",
    tone: "warn",
    help: "Some pages are scanned images without a text layer, and no OCR engine could read them.",
  },
  needs_password: {
    label: "Needs password",
    tone: "warn",
    help: "This PDF is encrypted. Import it again with its password.",
  },
  duplicate: { label: "Already imported", tone: "muted", help: "The same file is already in this project." },
};

export function statusLabel(status: string): StatusLabel {
  return STATUS[status] ?? { label: status ? status.replace(/_/g, " ") : "Unknown", tone: "muted", help: "" };
}

const ERROR_CODES: Record<string, string> = {
  not_pdf: "This file is not a PDF, although its name says so.",
  corrupt: "The file is damaged, so its text could not be read.",
  truncated: "The file is incomplete (cut short), so its text could not be read.",
  encrypted: "This PDF is encrypted and needs its password.",
  unsupported: "Cairn cannot read this kind of file yet.",
  too_large: "The file is too large to import.",
  timeout: "Reading the file took too long and was stopped.",
  no_text: "The file contains no text Cairn could find.",
};

/**
 * The error of a document in plain words: a known code's sentence, else the
 * reader's message with technical prefixes trimmed and a capital letter.
 */
export function plainError(message?: string, code?: string): string {
  if (code && ERROR_CODES[code]) return ERROR_CODES[code];
  let m = (message ?? "").trim();
  if (!m) return "";
  // "read x.pdf: pdf: malformed PDF: …" → the last, most specific part
  // "read x.pdf: pdf: not a PDF" → "not a PDF": a Go package's name ("pdf")
  // is no context for people.
  let parts = m.split(/:\s+/);
  if (parts.length > 2) parts = parts.slice(-2);
  if (parts.length === 2 && /^[a-z0-9_]+$/.test(parts[0])) parts = parts.slice(1);
  m = parts.join(": ");
  m = m.charAt(0).toUpperCase() + m.slice(1);
  if (!/[.!?]$/.test(m)) m += ".";
  return m;
}

/** "p. 3", "p. 3–4", or "" when unknown. */
export function pageSpan(start?: number, end?: number): string {
  if (!start || start < 1) return "";
  if (!end || end <= start) return `p. ${start}`;
  return `pp. ${start}–${end}`;
}

/** "PDF", "DOCX", … from a kind or a file name. */
export function kindLabel(kind?: string, fileName?: string): string {
  const k = (kind || fileName?.split(".").pop() || "").toLowerCase();
  return k ? k.toUpperCase() : "—";
}

/**
 * Number with thousands separators, as toLocaleString("en-US") writes it (at
 * most three decimals), without it: the first toLocaleString call loads the
 * locale data, which cost the Library's first render 70 ms.
 */
export function count(n?: number): string {
  const v = n ?? 0;
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v < 0 ? "-∞" : "∞";
  if (Math.abs(v) >= 1e21) return v.toLocaleString("en-US"); // toFixed writes an exponent there
  const [int, frac] = Math.abs(v).toFixed(3).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+$)/g, ",");
  const decimals = frac.replace(/0+$/, "");
  const out = decimals ? `${grouped}.${decimals}` : grouped;
  return v < 0 ? `-${out}` : out;
}

/** Human file size. */
export function fileSize(bytes?: number): string {
  const b = bytes ?? 0;
  if (b < 1024) return `${b} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(0)} KB`;
  return `${(b / 1024 / 1024).toFixed(1)} MB`;
}

/** Score shown small next to a result. */
export function score(s?: number): string {
  if (s === undefined || s === null || Number.isNaN(s)) return "";
  return s >= 10 ? s.toFixed(1) : s.toPrecision(2);
}

export interface ProgressLike {
  index: number;
  total: number;
  stage: string;
}

const STAGE_WEIGHT: Record<string, number> = { queued: 0, reading: 0.15, ocr: 0.4, chunking: 0.6, indexing: 0.75, embedding: 0.85, done: 1 };

/** Overall fraction (0..1) of an import from its latest progress event. */
export function importFraction(p?: ProgressLike | null): number {
  if (!p || !p.total) return 0;
  const within = STAGE_WEIGHT[p.stage] ?? 0.5;
  const f = (Math.max(1, p.index) - 1 + within) / p.total;
  return Math.min(1, Math.max(0, f));
}

/** "Reading federal-register.pdf (2 of 4)". */
export function progressText(p?: (ProgressLike & { file: string }) | null): string {
  if (!p) return "Starting import…";
  const name = p.file.split(/[\\/]/).pop() ?? p.file;
  const verb = p.stage === "done" ? "Imported" : p.stage ? p.stage.charAt(0).toUpperCase() + p.stage.slice(1) : "Importing";
  return `${verb} ${name} (${p.index} of ${p.total})`;
}

/** A file name from a title: no path or reserved characters, at most 80
 * characters before the extension (fallback when nothing is left). */
export function fileName(title: string, ext: string, fallback = "document"): string {
  const base = title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 80) || fallback;
  return `${base}.${ext}`;
}
