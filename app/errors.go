package app

import (
	"context"
	"errors"

	"cairn/backend/ingest/parsed"
	"cairn/backend/project"
	"cairn/backend/store"
)

// CallError is how a failed verb reaches the UI in both transports (the
// desktop window through Wails' error formatter, serve mode in its reply):
// the message for people and a code the UI can switch on ("" when none
// applies).
type CallError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// Error codes of the app's own failures; a reader's failure keeps its
// parsed.Code ("password_required", "corrupt", ...).
const (
	CodeNoProject       = "no_project"
	CodeNotFound        = "not_found"
	CodeProjectTooNew   = "project_too_new"
	CodeReadOnly        = "read_only"
	CodeReadOnlyOld     = "read_only_needs_upgrade"
	CodeEmbedderChanged = "embedder_changed"
	CodeEmbedderMissing = "embedder_unavailable"
	CodeCancelled       = "cancelled"
	CodeDesktopOnly     = "desktop_only"
	CodeInternal        = "internal"
)

// errNoProject is returned by verbs that need an open project.
var errNoProject = errors.New("no project is open")

// ErrorCode classifies err for the UI ("" when no code applies).
func ErrorCode(err error) string {
	var pe *parsed.Error
	var tooNew *store.ErrTooNew
	var roOld *store.ErrReadOnlyOld
	var emb *store.ErrEmbedderChanged
	var embMissing *project.ErrEmbedderUnavailable
	switch {
	case err == nil:
		return ""
	case errors.As(err, &pe):
		return string(pe.Code)
	case errors.Is(err, errNoProject):
		return CodeNoProject
	case errors.Is(err, errDesktopOnly):
		return CodeDesktopOnly
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNoAnswer), errors.Is(err, store.ErrNoChunk):
		return CodeNotFound
	case errors.As(err, &tooNew):
		return CodeProjectTooNew
	case errors.Is(err, store.ErrReadOnly):
		return CodeReadOnly
	case errors.As(err, &roOld):
		return CodeReadOnlyOld
	case errors.As(err, &emb):
		return CodeEmbedderChanged
	case errors.As(err, &embMissing):
		return CodeEmbedderMissing
	case errors.Is(err, context.Canceled):
		return CodeCancelled
	}
	return ""
}

// formatError is Wails' ErrorFormatter: a bound method's error reaches the
// page as a CallError object instead of a bare string. SQLite's bare busy
// and read-only codes are put in words first (store.Plain).
func formatError(err error) any {
	err = store.Plain(err)
	return CallError{Message: err.Error(), Code: ErrorCode(err)}
}
