// Event names: the same strings as the Go constants in app/app.go.
export const IMPORT_STARTED = "import:started";
export const IMPORT_PROGRESS = "import:progress";
export const IMPORT_DONE = "import:done";
export const LIBRARY_CHANGED = "library:changed";
export const INDEX_STARTED = "index:started";
export const INDEX_PROGRESS = "index:progress";
export const INDEX_DONE = "index:done";
export const ASK_TOKEN = "ask:token";
export const MODE_CHANGED = "mode:changed";
export const PROJECT_CHANGED = "project:changed";
export const MODELS_PULL = "models:pull";
export const EMBED_PROGRESS = "embed:progress";
export const EMBED_DONE = "embed:done";
