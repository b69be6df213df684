// Pure helpers of the Settings and Projects views: model-download progress
// in words, project-name checks (the same rules as backend/project's
// ValidateName, so the form says what is wrong before asking), and the
// theme, kept in the browser's storage.
import { etaText, nsToSeconds } from "./eta";
import { fileSize } from "./format";

export interface PullLike {
  completed_bytes: number;
  total_bytes: number;
  percent: number;
  eta_ns?: number;
  status?: string;
  done?: boolean;
}

/** Fraction 0–1 of a download. */
export function pullFraction(p?: PullLike | null): number {
  if (!p) return 0;
  if (p.done) return 1;
  if (p.percent > 0) return Math.min(1, p.percent / 100);
  if (p.total_bytes > 0) return Math.min(1, p.completed_bytes / p.total_bytes);
  return 0;
}

/** "1.2 GB of 4.7 GB · 26% · about 3 min left", or the status before bytes flow. */
export function pullText(p?: PullLike | null): string {
  if (!p) return "";
  if (p.done) return "Downloaded";
  if (!p.total_bytes) return p.status ? p.status.charAt(0).toUpperCase() + p.status.slice(1) : "Starting…";
  const parts = [`${fileSize(p.completed_bytes)} of ${fileSize(p.total_bytes)}`, `${Math.round(pullFraction(p) * 100)}%`];
  const eta = etaText(nsToSeconds(p.eta_ns));
  if (eta) parts.push(eta);
  return parts.join(" · ");
}

/** Why name cannot be a project name, or "" when it can. */
export function projectNameError(name: string): string {
  if (name === "") return "Give the project a name.";
  if (name !== name.trim()) return "A name cannot start or end with spaces.";
  if ([...name].length > 80) return "A name has at most 80 characters.";
  if (name === "." || name === "..") return `“${name}” cannot be a project name.`;
  if (name.startsWith(".")) return "A name cannot start with a dot.";
  if (name.endsWith(".")) return "A name cannot end with a dot.";
  // eslint-disable-next-line no-control-regex
  const bad = name.match(/[/\\:*?"<>|\u0000-\u001f\u007f]/);
  if (bad) return `A name cannot contain “${bad[0]}”.`;
  return "";
}

export type Theme = "light" | "dark";
export const THEME_KEY = "cairn.theme";

/** The saved theme; without one, the system's preference. */
export function loadTheme(storage: Pick<Storage, "getItem"> | undefined, prefersDark: boolean): Theme {
  const t = storage?.getItem(THEME_KEY);
  if (t === "light" || t === "dark") return t;
  return prefersDark ? "dark" : "light";
}

/** Applies the theme to the document and saves it. */
export function applyTheme(theme: Theme, root: HTMLElement, storage?: Pick<Storage, "setItem">) {
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  try {
    storage?.setItem(THEME_KEY, theme);
  } catch {
    /* storage full or blocked: the theme still applies now */
  }
}
