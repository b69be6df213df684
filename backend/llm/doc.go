// Package llm is Cairn's language-model layer: one Provider interface that
// every pipeline (extraction, mind maps, answers) calls, served either by a
// local (or LAN) Ollama or by the built-in offline provider.
//
// # The interface
//
// A pipeline asks for a JSON reply constrained by a schema (ChatJSON), a
// streamed free-text reply (ChatStream) or embeddings (Embed). Failures are
// typed: ErrOffline from the offline provider (take the deterministic path),
// or a *CallError whose Kind (FailUnreachable, FailTimeout, FailHTTP,
// FailMalformed, FailSchema, FailEmpty, FailUnknownModel, FailContext,
// FailCut) the caller records. No provider ever returns an empty or invalid
// reply as a success. Every reply carries its Usage (calls, prompt and
// completion tokens as Ollama counts them, wall time, retries, repairs); sum
// them per job or per question with a Meter.
//
// # Ollama (ollama.go, models.go)
//
// *Ollama talks to the server through github.com/ollama/ollama/api. Every
// chat call:
//   - sets options.num_ctx from the model's real context length (/api/show,
//     model_info "<architecture>.context_length") and a pessimistic token
//     estimate of the prompt (tokens.go, checked against the Qwen tokenizer)
//     times the model's learnt ratio (Ratios: prompt_eval_count over the
//     estimate, persisted per model) plus the reply budget, in power-of-two
//     steps from 8192 so the model is not reloaded for every prompt size;
//     num_predict is cut to what the window leaves (not under half), so
//     prompt + reply fit; a prompt that cannot fit is a FailContext error
//     before anything is sent (never a silent truncation), and
//     "truncate"/"shift" are sent as false so servers that know them refuse
//     rather than cut;
//   - reads done_reason: a streamed reply that stopped at its token limit
//     ("length") comes back with ChatReply.Cut set (the caller continues or
//     marks it); a JSON reply cut so is repaired once with twice the budget,
//     else FailCut; control-token text ("<|extra_4068|>") is removed from
//     every reply (special.go);
//   - sets keep_alive (30 min: the model stays loaded through an indexing
//     run), num_predict, temperature 0 (unless a ChatRequest asks otherwise);
//   - sends format = the JSON schema (titled with the schema's name) for
//     ChatJSON, and think=false for models whose capabilities include
//     "thinking"; <think>…</think> blocks are stripped anyway, from JSON
//     replies and from the answer stream;
//   - bounds each attempt with a timeout, retries transport errors, cut
//     replies and 5xx with exponential backoff (not timeouts, and never a
//     stream that has already emitted tokens);
//   - validates JSON replies in Go (schema.go: the JSON-schema subset Cairn
//     uses, checked without a dependency; unsupported keywords are refused
//     when a schema is compiled) and JSONRequest.Validate; a malformed,
//     empty, cut or invalid reply gets exactly one repair call (the bad reply
//     and the problems sent back, RepairPrompt, pinned by testdata/*.golden),
//     then a *CallError.
//
// Embeddings go through /api/embed in batches; Ollama.Embedder adapts one
// embedding model to embed.Embedder ("ollama:<model>", dimension learnt from
// the first reply). Models, ModelsDetailed, Show, Pull (progress with bytes,
// percent, ETA; cancel through the context) and Version/Health manage models.
//
// # Auto and offline (auto.go)
//
// Auto is what the app and CLI use: it delegates to Ollama while Ollama is
// reachable and has a chat model, and to Offline otherwise, re-probing every
// few seconds and at once after a call finds the server unreachable, so the
// mode follows Ollama appearing or disappearing without a restart
// (OnModeChange reports it). If the configured model is not installed it
// picks an installed one (recommended models first) and says so in
// Status.Notes; a chat model must chat and hold MinChatContext tokens
// (Pick says why one was passed over). ResolveHost picks the server: --ollama, else OLLAMA_HOST
// (URL, host:port, bare host or 0.0.0.0), else http://127.0.0.1:11434.
//
// Vectors that are stored must come from one fixed embedder, never from a
// provider whose mode can change. Only the project's chunk vectors can move
// to an Ollama embedding model (package project's re-embed job); entity,
// relation and mind-map vectors stay on the built-in hashed embedder.
//
// # Testing
//
// Package fakeollama is a real HTTP server speaking Ollama's API with
// scripted replies and every fault injectable; the tests here run the real
// client against it and assert on the requests it recorded.
//
// Per-call overhead of the layer against the fake answering at once
// (2026-11-21, 2 shared cores):
//
//	go test ./backend/llm -run XXX -bench 'ChatFake|ChatJSONFake' -benchmem -count 3
//
// ChatJSON: 3.0–6.8 ms and 8.0 MB per call; the bare HTTP exchange with the
// same fake: 0.07–0.17 ms. Almost all of the difference is the api client's
// 8 MiB line buffer allocated for every streamed or unstreamed reply
// (api.Client.stream); schema validation and extraction are microseconds.
// Against a 7B model's seconds per call it is under 0.1%.
//
// # Adding a provider
//
//  1. Implement Provider (Mode, ChatJSON, ChatStream, Embed) in a new file
//     of this package (or a subpackage): honour ctx, return ErrOffline when
//     there is no model, and a *CallError with the right FailureKind for every
//     failure. Never return an empty reply as a success.
//  2. For ChatJSON, reuse CompileSchema/ValidateJSON, ExtractJSON and
//     RepairPrompt so validation and the single repair attempt behave the
//     same as with Ollama; report Usage as the server counts tokens.
//  3. Size the context window explicitly and refuse (FailContext) what does
//     not fit; never let the server truncate.
//  4. For stored vectors, give an embed.Embedder adapter whose Info().Model
//     has its own prefix (like EmbedderPrefix) so projects can tell vectors
//     apart and re-embed when the model changes.
//  5. Test it against a fake server in the style of fakeollama: a real HTTP
//     server on loopback, every fault injected, assertions on what was sent.
//  6. Wire it into Auto (or a sibling) and into app/cli's provider().
package llm
