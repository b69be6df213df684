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
/** App.Search's reply: the hits and how the query was embedded. */
export type SearchResult = app.SearchResult;
export type Page = kb.Page;
export type ImportResult = project.ImportResult;
export type Progress = project.Progress;
export type ProjectInfo = project.Info;
export type ImportStatus = app.ImportStatus;
// Plain data (the generated classes also carry a convertValues helper).
export type ImportDone = Pick<app.ImportDone, "results" | "error">;

export * from "./events";
export type * from "./model";
import type { Answer, DocumentIdentity, GraphHit, GraphScope, GraphView, MindMap, Settings, Trace } from "./model";

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

// Every verb is called through the generated bindings (wailsjs/go/app/App),
// so its arguments and result are typed from the Go definitions. has() says
// whether the running backend offers a verb (no backend at all when the page
// is opened on its own), so views can say plainly what is not available.
function bound(): Record<string, unknown> {
  return ((window as unknown as Record<string, any>).go?.app?.App ?? {}) as Record<string, unknown>;
}

/** Whether the running Cairn has App.<method> (a verb of the generated bindings). */
export function has(method: keyof typeof App): boolean {
  return transport !== "none" && typeof bound()[method] === "function";
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
  /** Search within the documents docs (none: the whole project). */
  searchIn: (query: string, k: number, docs: number[]) => App.SearchIn(query, k, docs),
  documentPages: (docID: number) => App.DocumentPages(docID),
  /** What query matches in each of texts, as search matches (analyze.Marks). */
  marks: (query: string, texts: string[]) => App.Marks(query, texts),
  retryDocument: (docID: number, password: string) => App.RetryDocument(docID, password),
  // Document identity (app/identity.go): the user's title, organisation,
  // kind and period; reset gives them back to Cairn's choice.
  renameDocument: (docID: number, title: string) => App.RenameDocument(docID, title),
  editDocumentIdentity: (docID: number, edit: DocumentIdentity) => App.EditDocumentIdentity(docID, edit),
  resetDocumentTitle: (docID: number) => App.ResetDocumentTitle(docID),
  orphanedOriginals: () => App.OrphanedOriginals(),
  repairOrphans: () => App.RepairOrphans(),
  reindex: () => App.Reindex(),
  indexStatus: () => App.IndexStatus(),
  // Projects (app/projects.go).
  listProjects: () => App.ListProjects(),
  createProject: (name: string) => App.CreateProject(name),
  openProject: (name: string) => App.OpenProject(name),
  renameProject: (from: string, to: string) => App.RenameProject(from, to),
  deleteProject: (name: string) => App.DeleteProject(name),
  // Settings, models, embedder (app/settings.go, app/mode.go, app/embedder.go).
  getSettings: () => App.GetSettings(),
  saveSettings: (s: Settings) => App.SaveSettings(s),
  llmStatus: () => App.LLMStatus(),
  models: () => App.Models(),
  pullModel: (name: string) => App.PullModel(name),
  cancelPull: () => App.CancelPull(),
  embedderStatus: () => App.EmbedderStatus(),
  switchEmbedder: (model: string) => App.SwitchEmbedder(model),
  // MCP client configuration for the open project (app/mcp.go).
  mcpConfig: () => App.MCPConfig(),
  // Knowledge graph, mind maps, answers (app/views.go, app/ask.go).
  graph: () => App.Graph(),
  neighbourhood: (entityID: number, hops: number, limit: number) => App.Neighbourhood(entityID, hops, limit),
  /** The Graph view at any size (app/views.go): the most central entities of a scope, bounded. */
  graphOverview: (scope: GraphScope, limit: number, focus: string[]) => App.GraphOverview(scope, limit, focus) as Promise<unknown> as Promise<GraphView>,
  graphNeighbours: (entityID: number, scope: GraphScope, limit: number) => App.GraphNeighbours(entityID, scope, limit) as Promise<unknown> as Promise<GraphView>,
  graphSearch: (query: string, scope: GraphScope, limit: number) => App.GraphSearch(query, scope, limit) as Promise<unknown> as Promise<GraphHit[]>,
  entity: (nameOrID: string) => App.Entity(nameOrID),
  // kb.MindKind is a Go string type: its values are MindKind's.
  mindMap: (docID: number) => App.MindMap(docID) as Promise<unknown> as Promise<MindMap>,
  fusedMindMap: () => App.FusedMindMap() as Promise<unknown> as Promise<MindMap>,
  /** A mind map (0: the fused one) as a Markdown or OPML file's text. */
  exportMindMap: (docID: number, format: "md" | "opml") => App.ExportMindMap(docID, format),
  /** A document as Markdown (what `cairn text --format md` prints). */
  exportDocumentMarkdown: (docID: number) => App.ExportDocumentMarkdown(docID),
  /** Desktop only: the native save dialog, then writes text there; the path, "" when cancelled. */
  saveTextFile: (name: string, text: string) => App.SaveTextFile(name, text),
  // kb.Answer's trace is Go's json.RawMessage, which the generator types as
  // number[]; it holds a reason.Trace (model.ts).
  ask: (question: string, deep: boolean) => App.Ask(question, deep) as Promise<unknown> as Promise<Answer>,
  /** Ask within the documents docs (the Library's selection; none: the whole project). */
  askIn: (question: string, deep: boolean, docs: number[]) => App.AskIn(question, deep, docs) as Promise<unknown> as Promise<Answer>,
  answers: () => App.Answers() as Promise<unknown> as Promise<Answer[]>,
  answer: (id: number) => App.Answer(id) as Promise<unknown> as Promise<Answer>,
  answerTrace: (id: number): Promise<Trace> => App.AnswerTrace(id),
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

/** A rejected call's code (app.CallError), "" when it has none. */
export function errorCode(e: unknown): string {
  return e && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code ?? "") : "";
}

/** A rejected call's reason as a sentence (a CallError's message, or a string
 * for failures before the backend answered). */
export function errorMessage(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  return String(e);
}
