// JSON shapes of the app facade that the generated bindings do not (yet)
// describe. They mirror backend/kb/graph.go, mindmap.go, answer.go and
// app/library.go, app/projects.go field for field (json tags).

/** Where a derived fact came from (kb.Source): byte spans in the document text. */
export interface Source {
  doc_id: number;
  chunk_id: number;
  page_start: number;
  page_end: number;
  char_start: number;
  char_end: number;
}

export interface Entity {
  id: number;
  name: string;
  type: string;
  semantic_type?: string;
  description?: string;
  aliases: string[] | null;
  mentions: Source[] | null;
}

export interface Relation {
  id: number;
  subject: number;
  predicate: string;
  object: number;
  subject_name?: string;
  object_name?: string;
  statement: string;
  confidence: number;
  sources: Source[] | null;
}

export interface Graph {
  entities: Entity[] | null;
  relations: Relation[] | null;
}

/** App.Entity's reply: the entity and its relations. */
export interface EntityDetail {
  entity: Entity;
  relations: Relation[] | null;
}

export type MindKind = "topic" | "route" | "fact";

export interface MindNode {
  id: number;
  parent: number;
  kind: MindKind;
  label: string;
  doc_id: number;
  supernode?: number;
  chunk_id?: number;
  page_start?: number;
  page_end?: number;
  char_start?: number;
  char_end?: number;
}

export interface Supernode {
  id: number;
  label: string;
  kind: MindKind;
  members: number[] | null;
  doc_ids: number[] | null;
}

export interface MindMap {
  nodes: MindNode[] | null;
  supernodes: Supernode[] | null;
}

export interface Citation extends Source {
  n: number;
  doc_title?: string;
  text: string;
}

export interface PathEdge {
  from: string;
  to: string;
  predicate: string;
  relation?: number;
  source: Source;
  /** The joining sentence, in full, when the predicate is not a phrase the text states. */
  sentence?: string;
}

export interface Path {
  score: number;
  semantic?: number;
  structural?: number;
  chosen?: boolean;
  nodes: string[] | null;
  edges: PathEdge[] | null;
}

export interface Answer {
  id?: number;
  question: string;
  answer: string;
  declined: boolean;
  /** why the answer is incomplete (the model stopped at its length limit); absent when complete */
  cut?: string;
  mode: string;
  citations: Citation[] | null;
  paths: Path[] | null;
  trace: unknown;
  asked_at?: string;
  /** The short answer the text leads with: its citation n, the supporting citations in reasoning order. */
  short?: ShortAnswer;
}

export interface ShortAnswer {
  text: string;
  n: number;
  support: number[];
  kind: string;
  score: number;
}

export interface IndexProgress {
  stage: string;
  doc_id?: number;
  done: number;
  total: number;
  eta_ns?: number;
  note?: string;
}

export interface IndexState {
  running: boolean;
  last?: IndexProgress;
  done?: { error?: string; warning?: string; seconds: number };
}

export interface ProjectEntry {
  name: string;
  dir: string;
  open: boolean;
  documents: number;
  modified?: string;
  error?: string;
}

/** App.ListProjects: managed is false when Cairn serves one folder only. */
export interface ProjectList {
  root: string;
  managed: boolean;
  projects: ProjectEntry[] | null;
}

/** app.Settings (app/settings.go). */
export interface Settings {
  ollama_host: string;
  offline: boolean;
  chat_model: string;
  embed_model: string;
  context_size: number;
  answer_mode: "quick" | "deep" | string;
  last_project?: string;
}

/** App.MCPConfig (app/mcp.go): how an MCP client starts `cairn mcp` on the open project. */
export interface MCPConfig {
  name: string;
  command: string;
  args: string[];
  project: string;
  snippet: string;
}

/** llm.Status. */
export interface LLMStatus {
  mode: "ollama" | "offline" | string;
  host: string;
  version?: string;
  chat_model?: string;
  embed_model?: string;
  reason?: string;
  notes?: string[] | null;
}

/** llm.ModelInfo. */
export interface ModelInfo {
  name: string;
  family?: string;
  parameter_size?: string;
  quantization?: string;
  size_bytes?: number;
  context_length?: number;
  embedding_length?: number;
  thinking?: boolean;
  embedding?: boolean;
}

/** app.ModelsInfo. */
export interface ModelsInfo {
  status: LLMStatus;
  models: ModelInfo[] | null;
  recommended: Record<string, string[]>;
  pulling?: string;
  error?: string;
}

/** app.PullEvent: a step of a model download. */
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

export interface EmbedderInfo {
  model: string;
  dim: number;
}

/** project.EmbedderStatus. */
export interface EmbedderStatus {
  current: EmbedderInfo;
  pending?: EmbedderInfo;
  done: number;
  total: number;
}

/** project.ReembedProgress. */
export interface ReembedProgress {
  target: EmbedderInfo;
  done: number;
  total: number;
  eta_ns?: number;
  finished?: boolean;
}
