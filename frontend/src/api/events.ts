// Event names: the same strings as the Go constants in app/app.go.
export const IMPORT_STARTED = "import:started";
export const IMPORT_PROGRESS = "import:progress";
export const IMPORT_DONE = "import:done";
export const LIBRARY_CHANGED = "library:changed";
