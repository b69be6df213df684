package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/project"
	"cairn/backend/store"
)

func TestErrorCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("something"), ""},
		{fmt.Errorf("import x.pdf: %w", parsed.Errorf(parsed.CodePasswordRequired, "needs a password")), "password_required"},
		{errNoProject, CodeNoProject},
		{fmt.Errorf("document 3: %w", store.ErrNotFound), CodeNotFound},
		{fmt.Errorf("answer 3: %w", store.ErrNoAnswer), CodeNotFound},
		{fmt.Errorf("passage 3: %w", store.ErrNoChunk), CodeNotFound},
		{&project.ErrEmbedderUnavailable{Model: "m", Err: errors.New("refused")}, CodeEmbedderMissing},
		{fmt.Errorf("open: %w", &store.ErrTooNew{Have: 99, Know: 12}), CodeProjectTooNew},
		{store.ErrReadOnly, CodeReadOnly},
		{&store.ErrReadOnlyOld{Path: "/p"}, CodeReadOnlyOld},
		{fmt.Errorf("ask: %w", context.Canceled), CodeCancelled},
	} {
		if got := ErrorCode(c.err); got != c.want {
			t.Errorf("ErrorCode(%v) = %q, want %q", c.err, got, c.want)
		}
	}
	if e, ok := formatError(store.ErrReadOnly).(CallError); !ok || e.Code != CodeReadOnly || e.Message != store.ErrReadOnly.Error() {
		t.Fatalf("formatError = %#v", formatError(store.ErrReadOnly))
	}
}

// TestServeErrorCarriesCode: serve mode's reply to a failed verb has the
// message and its code.
func TestServeErrorCarriesCode(t *testing.T) {
	a := newApp(&fakeBackend{dir: t.TempDir()})
	base, token := startServe(t, a)
	resp, r := post(t, base, "App.EmbedderStatus", "[]", map[string]string{tokenHeader: token})
	if resp.StatusCode != 200 || r.Error != errNoProject.Error() || r.Code != CodeNoProject {
		t.Fatalf("reply %d %+v", resp.StatusCode, r)
	}
}
