// Package cli is Cairn's command line: the headless face of the same project
// API the desktop app uses (import, docs, remove, search, text, check, serve)
// plus the retrieval evaluation interface. Every command that lists things
// can print one JSON object per line (--json) for scripts and outside checks.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"sort"
	"strings"
)

// Env is what a command runs against; tests substitute buffers.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Assets         fs.FS // the built frontend (for serve)

	// Global flags, accepted by every command.
	Ollama  string
	Offline bool
}

type command struct {
	name, usage string
	run         func(ctx context.Context, env *Env, args []string) int
}

var commands []command

// register adds commands; the files that own them call it in init, and
// Usage lists them in registration order (cli.go's first, then by file name).
func register(c ...command) { commands = append(commands, c...) }

func init() {
	register(
		command{"import", "import --project DIR [--json] [--password PW] [--no-index] PATH...   import files or folders, then index; one result per file", cmdImport},
		command{"docs", "docs --project DIR [--json]                             list documents: id, title, status, pages, chunks, error", cmdDocs},
		command{"remove", "remove --project DIR DOC_ID...                          delete documents and everything derived from them", cmdRemove},
		command{"search", "search --project DIR [--k N] [--json] QUERY              hybrid passage search (BM25 + vectors, fused)", cmdSearch},
		command{"text", "text --project DIR [--page N] [--format text|md|json] DOC_ID   the extracted text, page by page (md: # headings, pipe tables)", cmdText},
		command{"check", "check --project DIR                                     integrity check; exits non-zero on problems", cmdCheck},
		command{"serve", "serve --project DIR [--addr 127.0.0.1:PORT]            serve the app to a browser on loopback (token in the URL)", cmdServe},
		command{"eval-retrieve", "eval-retrieve                                        ../shared/eval scoring interface: question on stdin, EVAL_CORPUS set", cmdEvalRetrieve},
		command{"eval-score", "eval-score [--json] DATASET_DIR...                   Recall@2/@5 of eval-retrieve's ranking on a dataset's questions", cmdEvalScore},
	)
}

// Usage prints the command list.
func Usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cairn COMMAND [flags] [args]    (no command: open the desktop app)")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintln(w, "  cairn "+c.usage)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "global flags: --ollama URL (else OLLAMA_HOST, else http://127.0.0.1:11434), --offline")
}

// Main runs the command in args (args[0] is the command name) and returns the exit code.
func Main(args []string, assets fs.FS) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Assets: assets}
	return env.Run(ctx, args)
}

// Run dispatches one command.
func (env *Env) Run(ctx context.Context, args []string) int {
	args, ok := env.globalFlags(args)
	if !ok {
		return 2
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		Usage(env.Stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.Stderr, "cairn: unknown command %q\n\n", args[0])
	Usage(env.Stderr)
	return 2
}

// globalFlags takes the global flags given before the command
// (`cairn --offline models`, `cairn --ollama URL ask ...`) and returns the
// rest, the command first.
func (env *Env) globalFlags(args []string) ([]string, bool) {
	for len(args) > 0 {
		a := args[0]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" || a == "-h" || a == "--help" {
			return args, true
		}
		switch name {
		case "offline":
			env.Offline = !hasValue || value == "true" || value == "1"
			args = args[1:]
		case "ollama":
			if !hasValue {
				if len(args) < 2 {
					fmt.Fprintln(env.Stderr, "cairn: --ollama needs a URL")
					return nil, false
				}
				value = args[1]
				args = args[1:]
			}
			env.Ollama = value
			args = args[1:]
		default:
			fmt.Fprintf(env.Stderr, "cairn: unknown global flag %s (global flags: --ollama URL, --offline)\n", a)
			return nil, false
		}
	}
	return args, true
}

// flags returns a flag set with the global flags on it (their defaults are
// what was given before the command).
func (env *Env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&env.Ollama, "ollama", env.Ollama, "Ollama URL (else OLLAMA_HOST, else http://127.0.0.1:11434)")
	fs.BoolVar(&env.Offline, "offline", env.Offline, "do not use Ollama even if it is running")
	return fs
}

// parse parses flags that may come before or after positional arguments.
func (env *Env) parse(fs *flag.FlagSet, args []string) ([]string, bool) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, true
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), true
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

func (env *Env) fail(err error) int {
	fmt.Fprintln(env.Stderr, "cairn:", err)
	return 1
}

var errNoProject = errors.New("--project DIR is required")

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
