// Package cli is Cairn's command line: the headless face of the same project
// API the desktop app uses (import, docs, remove, search, text, check, serve,
// ask, ...). Every command that lists things can print one JSON object per
// line (--json) for scripts and outside checks. The evaluation commands are
// not in the shipped binary: tools/cairneval (cairn-eval) is this command
// line with them added (Env.Extra).
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
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"cairn/backend/project"
	"cairn/backend/store"
)

// Env is what a command runs against; tests substitute buffers.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Assets         fs.FS // the built frontend (for serve)

	// rawStderr is Stderr before escaping (safeout.go), for the progress
	// lines that redraw themselves with \r and ESC [K.
	rawStderr io.Writer

	// Global flags, accepted by every command.
	Ollama  string
	Offline bool

	// Program is the name usage lines give the binary ("cairn" when empty).
	Program string
	// Extra are commands a program built on this command line adds after
	// the built-in ones (tools/cairneval: the evaluation commands).
	Extra []Command
}

// Command is one command: its name, its usage line (after the program
// name) and its function, which returns the exit code.
type Command struct {
	Name, Usage string
	Run         func(ctx context.Context, env *Env, args []string) int
}

// commands are the CLI's commands in the order Usage lists them; each
// command's function stands in the file of its subject (cmd_*.go).
var commands = []Command{
	{"import", "import --project DIR [--json] [--password PW] [--no-index] PATH...   import files or folders, then index; one result per file", cmdImport},
	{"docs", "docs --project DIR [--json]                             list documents: id, title, status, pages, chunks, error", cmdDocs},
	{"rename", "rename --project DIR [--org O --type T --period P] ID TITLE  rename a document (the file is not read again); --auto ID undoes it", cmdRename},
	{"remove", "remove --project DIR DOC_ID...                          delete documents and everything derived from them", cmdRemove},
	{"search", "search --project DIR [--k N] [--json] [--doc ID]... QUERY   hybrid passage search (BM25 + vectors, fused)", cmdSearch},
	{"text", "text --project DIR [--page N] [--format text|md|json] DOC_ID   the extracted text, page by page (md: # headings, pipe tables)", cmdText},
	{"check", "check --project DIR [--repair]                          integrity check; exits non-zero on problems; --repair imports orphaned originals again", cmdCheck},
	{"serve", "serve --project DIR [--addr 127.0.0.1:PORT]            serve the app to a browser on loopback (token in the URL)", cmdServe},
	{"ask", "ask --project DIR [--deep] [--json] [--k N] [--doc ID]... QUESTION   answer with citations and reasoning paths (stored with its trace)", cmdAsk},
	{"export", "export --project DIR [--force] OUT.zip                  back up a project (consistent snapshot, safe while the app runs)", cmdExport},
	{"import-project", "import-project BACKUP.zip DIR                          restore a backup into a new, empty folder and check it", cmdImportProject},
	{"index", "index --project DIR [--json] [--retry-failed]            run or resume pending indexing (OCR of scanned pages, knowledge graph, mind maps) with progress", cmdIndex},
	{"graph", "graph --project DIR --format json|graphml [--doc ID]... [--cooccurrence]   export the knowledge graph", cmdGraph},
	{"entity", "entity --project DIR [--json] NAME                      one entity: aliases, types, relations, sources", cmdEntity},
	{"mindmap", "mindmap --project DIR [--doc ID | --fused] [--format json|md|opml]   a document's mind map, or the fused map of all", cmdMindMap},
	{"models", "models [--json]                                      installed Ollama models (context, family, size), the ones Cairn uses, recommendations", cmdModels},
	{"pull", "pull [--json] MODEL                                  download an Ollama model with progress (Ctrl-C cancels)", cmdPull},
	{"embed-model", "embed-model --project DIR [--json] [MODEL|builtin]   show or switch the model embedding the project's passages (resumable)", cmdEmbedModel},
	{"mcp", "mcp --project DIR [--allow-import]                     serve the project to an MCP client over stdio (read-only unless --allow-import)", cmdMCP},
}

// movedToEval are the evaluation commands that left the shipped binary for
// cairn-eval (tools/cairneval); cairn answers them with where they went.
var movedToEval = []string{"eval", "eval-retrieve", "eval-score", "eval-tune", "eval-paths"}

// Usage prints cairn's command list.
func Usage(w io.Writer) { (&Env{}).usage(w) }

// usage prints the command list: the built-in commands, then env.Extra.
func (env *Env) usage(w io.Writer) {
	prog := env.program()
	if prog == "cairn" {
		fmt.Fprintln(w, "usage: cairn COMMAND [flags] [args]    (no command: open the desktop app)")
	} else {
		fmt.Fprintf(w, "usage: %s COMMAND [flags] [args]\n", prog)
	}
	fmt.Fprintln(w)
	for _, c := range append(commands[:len(commands):len(commands)], env.Extra...) {
		fmt.Fprintln(w, "  "+prog+" "+c.Usage)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "global flags: --ollama URL (else OLLAMA_HOST, else http://127.0.0.1:11434), --offline")
}

func (env *Env) program() string {
	if env.Program == "" {
		return "cairn"
	}
	return env.Program
}

// Main runs the command in args (args[0] is the command name) and returns the exit code.
func Main(args []string, assets fs.FS) int {
	return MainWith("", nil, args, assets)
}

// MainWith is Main for a program built on this command line: its name
// (usage lines) and the commands it adds (tools/cairneval).
func MainWith(program string, extra []Command, args []string, assets fs.FS) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Assets: assets, Program: program, Extra: extra}
	return env.Run(ctx, args)
}

// Run dispatches one command. Everything it prints goes through
// safeWriter: control characters in document text and file names are
// escaped, never sent to the terminal.
func (env *Env) Run(ctx context.Context, args []string) int {
	if _, done := env.Stdout.(*safeWriter); !done {
		out, errw := &safeWriter{w: env.Stdout}, &safeWriter{w: env.Stderr}
		env.rawStderr = env.Stderr
		env.Stdout, env.Stderr = out, errw
		defer func() {
			out.flush()
			errw.flush()
			env.Stdout, env.Stderr = out.w, errw.w
		}()
	}
	args, ok := env.globalFlags(args)
	if !ok {
		return 2
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		env.usage(env.Stdout)
		return 0
	}
	for _, c := range append(commands[:len(commands):len(commands)], env.Extra...) {
		if c.Name == args[0] {
			return c.Run(ctx, env, args[1:])
		}
	}
	if slices.Contains(movedToEval, args[0]) {
		fmt.Fprintf(env.Stderr, "cairn %[1]s moved to cairn-eval: build/bin/cairn-eval %[1]s … (make cli builds it; or go run ./tools/cairneval %[1]s …)\n", args[0])
		return 2
	}
	fmt.Fprintf(env.Stderr, "%s: unknown command %q\n\n", env.program(), args[0])
	env.usage(env.Stderr)
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
// docList is a repeatable --doc ID flag: the documents a command is kept
// to (cairn docs lists the ids).
type docList []int64

func (d *docList) String() string { return fmt.Sprint([]int64(*d)) }

func (d *docList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("%q is not a document id (cairn docs lists them)", f)
		}
		*d = append(*d, id)
	}
	return nil
}

// repeatable reports whether a flag may be given more than once (--doc).
func repeatable(f *flag.Flag) bool {
	if f == nil {
		return false
	}
	_, ok := f.Value.(*docList)
	return ok
}

func (env *Env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&env.Ollama, "ollama", env.Ollama, "Ollama URL (else OLLAMA_HOST, else http://127.0.0.1:11434)")
	fs.BoolVar(&env.Offline, "offline", env.Offline, "do not use Ollama even if it is running")
	return fs
}

// parse parses flags that may come before or after positional arguments.
// After "--" every argument is positional, whatever it looks like. A flag
// given twice is refused (a file named "--project" expanded by a shell glob
// must not silently redirect the command), and so is a flag-like argument
// that names an existing file: such paths go after "--", and the flag itself
// can still be given as --name=value, which names no file.
func (env *Env) parse(fs *flag.FlagSet, args []string) ([]string, bool) {
	var rest []string
	seen := map[string]bool{}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return append(rest, args[1:]...), true
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			args = args[1:]
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if _, err := os.Lstat(a); err == nil && !projectFlag(fs, name, hasValue, seen, args) {
			fmt.Fprintf(env.Stderr, "cairn %s: %q is both a flag and a file here: a shell glob such as * may have put that file's name in the command, so Cairn does not guess. Write the flag as %s=VALUE, and put file names after -- (cairn %s ... -- %s)\n", fs.Name(), a, flagForm(a), fs.Name(), a)
			return nil, false
		}
		n := 1
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) {
			n = 2
		}
		n = min(n, len(args))
		if seen[name] && !repeatable(fs.Lookup(name)) {
			fmt.Fprintf(env.Stderr, "cairn %s: flag -%s given twice (a file named like a flag? put paths after --)\n", fs.Name(), name)
			return nil, false
		}
		seen[name] = true
		if err := fs.Parse(args[:n]); err != nil {
			return nil, false
		}
		args = args[n:]
	}
	return rest, true
}

// projectFlag reports whether a, a flag-like argument that also names a
// file here, is plainly the --project flag: given once, followed by a folder
// that is a Cairn project (holding cairn.db). A shell glob does not expand
// to "--project" followed by a project folder by chance, and the user who
// typed `cairn docs --project P` in a folder holding a file named
// "--project" means the flag.
func projectFlag(fs *flag.FlagSet, name string, hasValue bool, seen map[string]bool, args []string) bool {
	if name != "project" || hasValue || seen[name] || fs.Lookup(name) == nil || len(args) < 2 {
		return false
	}
	st, err := os.Stat(filepath.Join(args[1], project.DBName))
	return err == nil && st.Mode().IsRegular()
}

// flagForm is a flag argument without any "=value" ("--project=x" → "--project").
func flagForm(a string) string {
	name, _, _ := strings.Cut(a, "=")
	return name
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (env *Env) fail(err error) int {
	fmt.Fprintln(env.Stderr, "cairn:", store.Plain(err)) // SQLite's bare busy/read-only codes in words
	return 1
}

var errNoProject = errors.New("--project DIR is required")
