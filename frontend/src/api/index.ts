// The UI's one API. Calls go through the Wails-generated bindings in
// wailsjs/: in the desktop window Wails provides window.go and
// window.runtime; in serve mode installServeTransport provides them over
// HTTP + SSE. Views import only from here.
import * as App from "../../wailsjs/go/app/App";
import type { app, kb, project } from "../../wailsjs/go/models";
import { EventsOn } from "../../wailsjs/runtime/runtime";
import { installServeTransport, type ServeConfig } from "./http";

export type Document = kb.Document;
export type Hit = kb.Hit;
export type Page = kb.Page;
export type ImportResult = project.ImportResult;
export type Progress = project.Progress;
export type ProjectInfo = project.Info;
export type ImportStatus = app.ImportStatus;
// Plain data (the generated classes also carry a convertValues helper).
export type ImportDone = Pick<app.ImportDone, "results" | "error">;

export * from "./events";
export type * from "./types";
import type { Answer, EmbedderStatus, EntityDetail, Graph, IndexState, LLMStatus, MCPConfig, MindMap, ModelsInfo, ProjectEntry, ProjectList, Settings } from "./types";

type Transport = "desktop" | "http" | "none";

function detect(): Transport {
  const w = window as unknown as Record<string, any>;
  const cfg = w.__CAIRN_SERVE__ as ServeConfig | undefined;
  if (cfg && !w.go) {
    installServeTransport(w as Window & Record<string, any>, cfg, {
      fetch: window.fetch.bind(window),
      EventSource: window.EventSource,
    });
    return "http";
  }
  if (cfg) return "http";
  if (w.go) return "desktop";
  // No backend (the built page opened on its own, e.g. by the graph
  // explorer's frame-time bench): every call rejects with a sentence instead
  // of throwing, so the page still renders and says what is missing.
  const offline = () => Promise.reject("Cairn's backend is not connected: open this page from the desktop app or `cairn serve`.");
  w.go = { app: { App: new Proxy({}, { get: () => offline }) } };
  return "none";
}

/** How the UI talks to Cairn: the desktop bindings, or HTTP in serve mode. */
export const transport: Transport = detect();

/** The native file dialog exists only in the desktop window. */
export const canPickFiles = transport === "desktop";

// Methods that are called by name: those added after the generated
// bindings (frontend/wailsjs) were last regenerated, and those whose backend
// may not exist in this build (knowledge graph, mind maps, answers). has()
// tells whether the running Cairn offers one, so views can say plainly what
// is not available instead of failing.
function bound(): Record<string, (...args: unknown[]) => Promise<unknown>> {
  return ((window as unknown as Record<string, any>).go?.app?.App ?? {}) as Record<string, (...args: unknown[]) => Promise<unknown>>;
}

/** Whether the running Cairn has App.<method>. */
export function has(method: string): boolean {
  return transport !== "none" && typeof bound()[method] === "function";
}

/** Calls App.<method> by name; rejects with a sentence when it does not exist. */
export function call<T>(method: string, ...args: unknown[]): Promise<T> {
  const fn = bound()[method];
  if (typeof fn !== "function") return Promise.reject(`This version of Cairn has no ${method}.`);
  return fn(...args) as Promise<T>;
}

export const api = {
  mode: () => App.Mode(),
  version: () => App.Version(),
  projectInfo: () => App.ProjectInfo(),
  listDocuments: () => App.ListDocuments(),
  importPaths: (paths: string[]) => App.ImportPaths(paths),
  pickAndImport: () => App.PickAndImport(),
  importStatus: () => App.ImportStatus(),
  removeDocuments: (ids: number[]) => App.RemoveDocuments(ids),
  search: (query: string, k = 20) => App.Search(query, k),
  documentPages: (docID: number) => App.DocumentPages(docID),
  retryDocument: (docID: number, password: string) => call<ImportResult[]>("RetryDocument", docID, password),
  orphanedOriginals: () => call<string[]>("OrphanedOriginals"),
  repairOrphans: () => call<ImportResult[]>("RepairOrphans"),
  reindex: () => call<void>("Reindex"),
  indexStatus: () => call<IndexState>("IndexStatus"),
  // Projects (app/projects.go).
  listProjects: () => call<ProjectList>("ListProjects"),
  createProject: (name: string) => call<ProjectEntry>("CreateProject", name),
  openProject: (name: string) => call<ProjectInfo>("OpenProject", name),
  renameProject: (from: string, to: string) => call<ProjectEntry>("RenameProject", from, to),
  deleteProject: (name: string) => call<void>("DeleteProject", name),
  // Settings, models, embedder (app/settings.go, app/mode.go, app/embedder.go).
  getSettings: () => call<Settings>("GetSettings"),
  saveSettings: (s: Settings) => call<Settings>("SaveSettings", s),
  llmStatus: () => call<LLMStatus>("LLMStatus"),
  models: () => call<ModelsInfo>("Models"),
  pullModel: (name: string) => call<void>("PullModel", name),
  cancelPull: () => call<void>("CancelPull"),
  embedderStatus: () => call<EmbedderStatus>("EmbedderStatus"),
  switchEmbedder: (model: string) => call<void>("SwitchEmbedder", model),
  // MCP client configuration for the open project (app/mcp.go).
  mcpConfig: () => call<MCPConfig>("MCPConfig"),
  // Knowledge graph, mind maps, answers (app/views.go, app/ask.go).
  graph: () => call<Graph>("Graph"),
  neighbourhood: (entityID: number, hops: number, limit: number) => call<Graph>("Neighbourhood", entityID, hops, limit),
  entity: (nameOrID: string) => call<EntityDetail>("Entity", nameOrID),
  mindMap: (docID: number) => call<MindMap>("MindMap", docID),
  fusedMindMap: () => call<MindMap>("FusedMindMap"),
  ask: (question: string, deep: boolean) => call<Answer>("Ask", question, deep),
  answers: () => call<Answer[]>("Answers"),
  answer: (id: number) => call<Answer>("Answer", id),
};

export type Api = typeof api;

/** Serve mode only: uploads files dropped on the page (POST /upload), which
 * imports them like a desktop drop. name is the file's path relative to the
 * drop (a folder's files keep their folders). */
export async function uploadFiles(files: { file: Blob; name: string }[]): Promise<ImportResult[]> {
  const cfg = (window as unknown as Record<string, any>).__CAIRN_SERVE__ as ServeConfig | undefined;
  if (!cfg) throw "Uploading works only when Cairn is opened in a browser (cairn serve).";
  const form = new FormData();
  for (const f of files) form.append("file", f.file, f.name);
  let res: Response;
  try {
    res = await fetch("/upload", { method: "POST", body: form, headers: { "X-Cairn-Token": cfg.token }, credentials: "same-origin" });
  } catch {
    throw "Cairn is not reachable. Is `cairn serve` still running?";
  }
  const body = (await res.json().catch(() => ({}))) as { result?: ImportResult[]; error?: string };
  if (body.error) throw body.error;
  if (!res.ok) throw `upload failed (HTTP ${res.status})`;
  return body.result ?? [];
}

/** Where a document's stored original is streamed from (GET /original/<id>,
 * with range requests; app/original.go), and the headers that request needs
 * (serve mode's token). Null when no backend is connected. */
export function originalSource(docID: number): { url: string; httpHeaders: Record<string, string> } | null {
  if (transport === "none") return null;
  const cfg = (window as unknown as Record<string, any>).__CAIRN_SERVE__ as ServeConfig | undefined;
  return { url: `/original/${docID}`, httpHeaders: cfg ? { "X-Cairn-Token": cfg.token } : {} };
}

/** Subscribes to a backend event; returns the unsubscribe function. */
export function onEvent<T = unknown>(name: string, cb: (data: T) => void): () => void {
  if (transport === "none") return () => {};
  return EventsOn(name, cb as (...data: any) => void);
}

/** A rejected call's reason as a sentence (Wails rejects with a string). */
export function errorMessage(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  return String(e);
}
