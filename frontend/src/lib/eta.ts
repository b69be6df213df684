// Remaining-time estimates for progress bars: from the backend's own ETA
// when it sends one, else from the rate observed so far.

export interface Sample {
  /** Milliseconds (any clock, increasing). */
  t: number;
  done: number;
  total: number;
}

/**
 * Seconds left, estimated from the first and last samples of the same total
 * (the rate since the work started); null until there is a rate.
 */
export function etaSeconds(samples: Sample[]): number | null {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1];
  const first = samples.find((s) => s.total === last.total) ?? samples[0];
  const dt = last.t - first.t;
  const dd = last.done - first.done;
  if (dt <= 0 || dd <= 0 || last.total <= 0) return null;
  const left = Math.max(0, last.total - last.done);
  return (left * dt) / dd / 1000;
}

/** "less than a minute left", "about 3 min left", "about 1 h 10 min left". */
export function etaText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 45) return "less than a minute left";
  const min = Math.round(seconds / 60);
  if (min < 60) return `about ${min} min left`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  return `about ${h} h${m ? ` ${m} min` : ""} left`;
}

/** Nanoseconds (Go time.Duration JSON) → seconds. */
export const nsToSeconds = (ns?: number) => (ns ? ns / 1e9 : null);

const STAGE_NAMES: Record<string, string> = {
  ocr: "Reading scanned pages (OCR)",
  extract: "Extracting entities and relations",
  graph: "Building the knowledge graph",
  mindmap: "Drawing mind maps",
  fuse: "Fusing mind maps across documents",
  embed: "Embedding",
};

/** A stage name in words. */
export function stageText(stage: string): string {
  return STAGE_NAMES[stage] ?? (stage ? stage.charAt(0).toUpperCase() + stage.slice(1).replace(/[_-]/g, " ") : "Indexing");
}
