// The Go API's data shapes, taken from the models Wails generates from the
// Go definitions (wailsjs/go/models.ts, checked by `make bindings-check`), as
// plain data: the generated classes' fields without their helper methods.
// Only what Go does not describe precisely is written here: mind-map kinds
// (a Go string type), the answer's trace (stored as raw JSON in kb.Answer;
// its shape is reason.Trace, which App.AnswerTrace returns), the call error
// and the two event payloads no bound method returns.
import type { app, graph, kb, llm, project, reason } from "../../wailsjs/go/models";

/** A generated class as plain data: its fields, recursively, without
 * methods; a Go slice may be nil, so arrays may be null. */
export type Data<T> = T extends (infer U)[]
  ? Data<U>[] | null
  : T extends object
    ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Data<T[K]> }
    : T;

export type Source = Data<kb.Source>;
export type Entity = Data<kb.Entity>;
export type Relation = Data<kb.Relation>;
export type Graph = Data<kb.Graph>;
/** The library-scale Graph view's replies (backend/graph/overview.go). */
export type GraphView = Data<graph.View>;
export type GraphViewNode = Data<graph.ViewNode>;
export type GraphGroup = Data<graph.ViewGroup>;
export type GraphHit = Data<graph.SearchHit>;
/** A Graph view scope: documents and types (empty: all). */
export type GraphScope = { docs: number[]; types: string[] };
export type EntityDetail = Data<app.EntityDetail>;

/** kb.MindKind's values. */
export type MindKind = "topic" | "route" | "fact";
export type MindNode = Omit<Data<kb.MindNode>, "kind"> & { kind: MindKind };
export type Supernode = Omit<Data<kb.Supernode>, "kind"> & { kind: MindKind };
export type MindMap = { nodes: MindNode[] | null; supernodes: Supernode[] | null };

export type Citation = Data<kb.Citation>;
export type PathEdge = Data<kb.PathEdge>;
export type Path = Data<kb.Path>;
/** reason.Trace: everything behind an answer. */
export type Trace = Data<reason.Trace>;
export type PlanStep = Data<reason.PlanStep>;
/** kb.Answer, its trace (raw JSON in Go) read as the reason.Trace it holds;
 * null when there is none (Answers lists answers without their traces). */
export type Answer = Omit<Data<kb.Answer>, "trace"> & { trace: Trace | null };
export type ShortAnswer = Data<kb.ShortAnswer>;

export type IndexProgress = Data<project.IndexProgress>;
export type IndexState = Data<app.IndexState>;
export type ProjectEntry = Data<app.ProjectEntry>;
export type ProjectList = Data<app.ProjectList>;
export type Settings = Data<app.Settings>;
export type LLMStatus = Data<llm.Status>;
export type ModelInfo = Data<llm.ModelInfo>;
export type ModelsInfo = Data<app.ModelsInfo>;
export type EmbedderInfo = Data<kb.EmbedderInfo>;
export type EmbedderStatus = Data<project.EmbedderStatus>;
export type MCPConfig = Data<app.MCPConfig>;
export type DocumentIdentity = Data<app.DocumentIdentity>;
export type Scope = Data<kb.Scope>;

/** app.CallError: how a failed verb rejects, in both transports; code is
 * one of app/errors.go's codes or a reader's (parsed.Code), "" when none. */
export interface CallError {
  message: string;
  code: string;
}

/** app.PullEvent (app/mode.go): a step of a model download ("pull" events). */
export interface PullEvent {
  model: string;
  status: string;
  completed_bytes: number;
  total_bytes: number;
  percent: number;
  bytes_per_s: number;
  eta_ns: number;
  done?: boolean;
  elapsed_ns: number;
  error?: string;
  cancelled?: boolean;
  finished?: boolean;
}

/** project.ReembedProgress (backend/project/embedder.go): "reembed" events. */
export interface ReembedProgress {
  target: EmbedderInfo;
  done: number;
  total: number;
  eta_ns?: number;
  finished?: boolean;
}
