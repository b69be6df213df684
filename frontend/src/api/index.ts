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
  return w.go ? "desktop" : "none";
}

/** How the UI talks to Cairn: the desktop bindings, or HTTP in serve mode. */
export const transport: Transport = detect();

/** The native file dialog exists only in the desktop window. */
export const canPickFiles = transport === "desktop";

export const api = {
  mode: () => App.Mode(),
  projectInfo: () => App.ProjectInfo(),
  listDocuments: () => App.ListDocuments(),
  importPaths: (paths: string[]) => App.ImportPaths(paths),
  pickAndImport: () => App.PickAndImport(),
  importStatus: () => App.ImportStatus(),
  removeDocuments: (ids: number[]) => App.RemoveDocuments(ids),
  search: (query: string, k = 20) => App.Search(query, k),
  documentPages: (docID: number) => App.DocumentPages(docID),
};

export type Api = typeof api;

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
