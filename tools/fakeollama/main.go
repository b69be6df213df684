// Command fakeollama runs the fake Ollama server (backend/llm/fakeollama) as
// a process, for the UI end-to-end tests (frontend/e2e/run.sh) and for
// trying Cairn's Ollama mode without a model. It prints its URL on the first
// line of stdout and serves until interrupted.
//
//	go run ./tools/fakeollama [--addr 127.0.0.1:0] [--delay 0s] [--rules rules.json]
//
// rules.json is a list of {"schema", "contains", "model", "reply", "fault"}
// objects (fault: "500", "malformed", "truncated", "cut", "drop", "empty",
// "stop-in-string", "special-tokens").
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"cairn/backend/llm/fakeollama"
)

type ruleFile struct {
	Schema   string `json:"schema"`
	Contains string `json:"contains"`
	Model    string `json:"model"`
	Reply    string `json:"reply"`
	Fault    string `json:"fault"`
	Times    int    `json:"times"`
}

var faults = map[string]fakeollama.Fault{"": fakeollama.FaultNone, "500": fakeollama.FaultHTTP500,
	"malformed": fakeollama.FaultMalformed, "truncated": fakeollama.FaultTruncated, "cut": fakeollama.FaultCut,
	"drop": fakeollama.FaultDrop, "empty": fakeollama.FaultEmpty,
	"stop-in-string": fakeollama.FaultStopInString, "special-tokens": fakeollama.FaultSpecialTokens}

func main() {
	addr := flag.String("addr", "", "listen address (default: a free loopback port)")
	delay := flag.Duration("delay", 0, "delay before every reply")
	pullStep := flag.Duration("pull-step", 50*time.Millisecond, "pause between pull progress messages")
	rules := flag.String("rules", "", "JSON file of reply rules")
	flag.Parse()

	s := fakeollama.New()
	if *addr != "" {
		s.Close()
		if _, _, err := net.SplitHostPort(*addr); err != nil {
			fmt.Fprintln(os.Stderr, "fakeollama:", err)
			os.Exit(2)
		}
		var err error
		s, err = fakeollama.Listen(*addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeollama:", err)
			os.Exit(1)
		}
	}
	defer s.Close()
	s.Delay(*delay)
	s.PullStep(*pullStep)
	if *rules != "" {
		b, err := os.ReadFile(*rules)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakeollama:", err)
			os.Exit(1)
		}
		var rs []ruleFile
		if err := json.Unmarshal(b, &rs); err != nil {
			fmt.Fprintln(os.Stderr, "fakeollama: rules:", err)
			os.Exit(1)
		}
		for _, r := range rs {
			f, ok := faults[r.Fault]
			if !ok {
				fmt.Fprintf(os.Stderr, "fakeollama: rules: unknown fault %q\n", r.Fault)
				os.Exit(1)
			}
			s.On(fakeollama.Rule{Schema: r.Schema, Contains: r.Contains, Model: r.Model, Reply: r.Reply, Fault: f, Times: r.Times})
		}
	}
	fmt.Println(s.URL())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
