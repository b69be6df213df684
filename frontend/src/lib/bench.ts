// Measuring hooks the app honours in its URL (kept apart from the views so
// the first paint does not load the graph explorer to read them).

/** "#bench-graph=10000": the explorer on a generated graph of that size (for measuring). */
export function benchSize(hash: string): number {
  const m = hash.match(/bench-graph=(\d+)/);
  return m ? Math.min(200_000, Number(m[1])) : 0;
}

/**
 * Startup milestones of the page, in ms since navigation started
 * (performance.now()): sent with the desktop's "ui:ready" event, which a
 * desktop started with CAIRN_TRACE_STARTUP=1 prints (cold-start bench).
 */
export const startupMarks: Record<string, number> = {};

/** Records a startup milestone (the first time only). */
export function markStartup(name: string): void {
  if (!(name in startupMarks) && typeof performance !== "undefined") startupMarks[name] = Math.round(performance.now());
}

/** The page's startup milestones plus the browser's own (HTML fetched, DOM parsed, page loaded). */
export function startupTimeline(): Record<string, number> {
  const out: Record<string, number> = {};
  const nav = typeof performance !== "undefined" ? (performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined) : undefined;
  if (nav) {
    out["html fetched"] = Math.round(nav.responseEnd);
    out["dom content loaded"] = Math.round(nav.domContentLoadedEventStart);
    if (nav.loadEventStart > 0) out["page loaded"] = Math.round(nav.loadEventStart);
  }
  return { ...out, ...startupMarks };
}
