// Command cairn-eval is cairn's command line with the evaluation commands
// added, which the shipped cairn binary leaves out:
//
//	eval           answers to a ../shared/eval dataset's questions: evidence Recall@2/5,
//	               answer containment, short-answer EM/F1, declines, latency
//	eval-score     Recall@2/@5 of the retrieval on datasets' questions
//	eval-retrieve  ../shared/eval's scoring interface (question on stdin, EVAL_CORPUS set)
//	eval-tune      the retrieval fusion grid
//	eval-paths     the reasoning-path settings grid
//
// `make cli` builds it as build/bin/cairn-eval beside build/bin/cairn;
// without make:
//
//	go run ./tools/cairneval eval --offline --limit 100 --dataset ../shared/eval/hotpotqa
//
// Every other cairn command works here too (help lists them all). The
// commands, their flags and what they measure: docs/cli.md and
// docs/development.md ("How to measure").
package main

import (
	"fmt"
	"os"

	"cairn/app/cli"
	"cairn/app/version"
	"cairn/backend/ingest"
)

// evalCommands are the commands cairn-eval adds to cairn's, in the order
// help lists them.
var evalCommands = []cli.Command{
	{Name: "eval-retrieve", Usage: "eval-retrieve                                        ../shared/eval scoring interface: question on stdin, EVAL_CORPUS set", Run: cmdEvalRetrieve},
	{Name: "eval-score", Usage: "eval-score [--json] DATASET_DIR...                   Recall@2/@5 of eval-retrieve's ranking on a dataset's questions", Run: cmdEvalScore},
	{Name: "eval", Usage: "eval --dataset DIR [--mode quick|deep] [--json] [--corpus FILE] [--limit N]   Recall@2/5 of the answers' evidence, EM/F1 with a model, decline rate", Run: cmdEval},
	{Name: "eval-tune", Usage: "eval-tune [--set NAME=V,...] [--top N] DATASET_DIR...   retrieval fusion grid on DEV sets (lists gathered once per question)", Run: cmdEvalTune},
	{Name: "eval-paths", Usage: "eval-paths [--limit N] DATASET_DIR...   reasoning-path settings (λ1, λ2, θ) on DEV sets: answer on a top path, gold-sourced top path", Run: cmdEvalPaths},
}

func main() {
	// A file reader started by this binary (import, see
	// backend/ingest/isolate.go) does its one read and exits here.
	ingest.MaybeRunWorker()
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "version") {
		fmt.Println(version.String())
		return
	}
	// The frontend is not embedded: serve shows frontend/dist when run
	// from the repository root after it is built.
	os.Exit(cli.MainWith("cairn-eval", evalCommands, os.Args[1:], os.DirFS("frontend/dist")))
}
