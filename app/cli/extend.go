package cli

import (
	"context"
	"flag"

	"cairn/backend/llm"
	"cairn/backend/project"
)

// What a command added through Env.Extra (tools/cairneval) uses to behave
// like the built-in ones.

// Flags is a flag set for command name with the global flags on it.
func (env *Env) Flags(name string) *flag.FlagSet { return env.flags(name) }

// Parse parses a command's flags, before or after its arguments, and
// returns the arguments; false means a usage error was printed (exit 2).
func (env *Env) Parse(fs *flag.FlagSet, args []string) ([]string, bool) { return env.parse(fs, args) }

// Fail prints err on stderr and returns exit code 1.
func (env *Env) Fail(err error) int { return env.fail(err) }

// Connect gives project p the language model the command uses (Ollama, or
// offline with --offline or when Ollama is not there; the mode goes to
// stderr) and returns it with its status.
func (env *Env) Connect(ctx context.Context, p *project.Project) (llm.Provider, llm.Status) {
	return env.connect(ctx, p)
}
