package testshared

import "testing"

func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "1": true, "": false, "false": false, "yes": false} {
		t.Setenv("CI", v)
		if InCI() != want {
			t.Errorf("CI=%q: InCI() = %v", v, !want)
		}
	}
}

// fakeTB records how a test ended.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()          {}
func (f *fakeTB) Fatal(...any)     { f.failed = true }
func (f *fakeTB) Skip(args ...any) { f.skipped = true }

func TestMissingFailsInCI(t *testing.T) {
	t.Setenv("CI", "true")
	f := &fakeTB{}
	Missing(f, "../shared/eval not present")
	if !f.failed || f.skipped {
		t.Fatalf("in CI: failed %v, skipped %v", f.failed, f.skipped)
	}
	t.Setenv("CI", "")
	f = &fakeTB{}
	Missing(f, "../shared/eval not present")
	if f.failed || !f.skipped {
		t.Fatalf("outside CI: failed %v, skipped %v", f.failed, f.skipped)
	}
}
