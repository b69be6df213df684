package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"cairn/app/cli"
)

func run(t *testing.T, env *cli.Env, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env.Stdin, env.Stdout, env.Stderr = strings.NewReader(""), &out, &errb
	code := env.Run(context.Background(), args)
	return code, out.String(), errb.String()
}

func evalEnv() *cli.Env { return &cli.Env{Program: "cairn-eval", Extra: evalCommands} }

func TestUsageErrors(t *testing.T) {
	t.Setenv("EVAL_CORPUS", "")
	if code, _, errs := run(t, evalEnv(), "eval-retrieve"); code != 1 || !strings.Contains(errs, "EVAL_CORPUS") {
		t.Errorf("eval-retrieve without corpus: %d %s", code, errs)
	}
	if code, _, errs := run(t, evalEnv(), "eval"); code != 2 || !strings.Contains(errs, "usage: cairn-eval eval --dataset") {
		t.Errorf("eval without a dataset: %d %s", code, errs)
	}
	if code, _, errs := run(t, evalEnv(), "nonsense"); code != 2 || !strings.HasPrefix(errs, `cairn-eval: unknown command "nonsense"`) {
		t.Errorf("unknown command: %d %s", code, errs)
	}
}

// TestCommands: cairn-eval's help lists cairn's commands and then its own;
// cairn itself (no Extra) lists none of these and points every one of them
// here.
func TestCommands(t *testing.T) {
	code, out, _ := run(t, evalEnv(), "help")
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "cairn-eval" {
			names = append(names, f[1])
		}
	}
	if code != 0 || len(names) < len(evalCommands)+10 || names[0] != "import" {
		t.Fatalf("help: exit %d, commands %q", code, names)
	}
	for i, c := range evalCommands {
		if got := names[len(names)-len(evalCommands)+i]; got != c.Name {
			t.Errorf("help lists %q where %q belongs", got, c.Name)
		}
		if slices.Index(names, c.Name) != len(names)-len(evalCommands)+i {
			t.Errorf("%s is listed twice", c.Name)
		}
		code, _, errs := run(t, &cli.Env{}, c.Name)
		if code == 0 || !strings.HasPrefix(errs, "cairn "+c.Name+" moved to cairn-eval: build/bin/cairn-eval "+c.Name) {
			t.Errorf("cairn %s: exit %d, %q", c.Name, code, errs)
		}
	}
	if _, out, _ := run(t, &cli.Env{}, "help"); strings.Contains(out, "eval") {
		t.Errorf("cairn's help lists an evaluation command:\n%s", out)
	}
}
