import { useEffect, useRef, useState } from "react";
import { api, errorMessage, has, type Hit } from "../api";
import { Icon, Marked, Notice } from "../components/ui";
import { pageSpan, plainError, score } from "../lib/format";
import { highlight, type Mark } from "../lib/highlight";
import { answerScopeText, type Scope } from "../lib/scope";
import { ScopeChip } from "../components/ScopeChip";

export interface SearchState {
  query: string;
  ran: string; // the query the results are for
  hits: Hit[];
  /** What the query matches in each hit's snippet (App.Marks), by hit. */
  marks: Mark[][];
  ms: number;
  /** When the query was not embedded (the passages were ranked by keywords
   * only), the sentence to show; "" when it was (App.Search's info). */
  note: string;
  /** The backend's reason for it, in full. */
  why: string;
  /** Where a query that names documents was routed ("Routed to: … — because: …"); "" for the whole project. */
  scope?: string;
  /** The documents searched within (ids joined by ","); "" for the whole project. */
  within?: string;
}

export const emptySearch: SearchState = { query: "", ran: "", hits: [], marks: [], ms: 0, note: "", why: "" };

/** What to say of a search's info (App.Search): nothing when vector
 * similarity ranked too; when the query could not be embedded (e.g. a
 * project embedded by an Ollama model while Ollama is away), a sentence
 * naming the model, and the backend's reason in full as why. */
export function searchNote(info: { embedder: string; vectors: boolean; note?: string } | null | undefined): { note: string; why: string } {
  if (!info || info.vectors) return { note: "", why: "" };
  const model = info.embedder.replace(/^ollama:/, "");
  const how = model ? ` with ${model}, the project's embedding model` : "";
  return {
    note: `Ranked by keywords only: the query could not be embedded${how}. Start Ollama, or choose the built-in embedding model in Settings.`,
    why: info.note ?? "",
  };
}

/** The text shown for a hit: the backend's snippet, else the passage start. */
export function snippetOf(hit: Hit, max = 320): string {
  const s = (hit.snippet || hit.text || "").replace(/\f/g, " ").replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max).replace(/\s\S*$/, "") + "…" : s;
}

export default function SearchView(props: {
  state: SearchState;
  setState: (s: SearchState) => void;
  hasDocuments: boolean;
  onOpen: (hit: Hit) => void;
  /** The documents to search within (the Library's selection); null: the whole project. */
  scope?: Scope | null;
  onClearScope?: () => void;
}) {
  const { state, setState } = props;
  const scope = props.scope && has("SearchIn") ? props.scope : null;
  const within = scope ? scope.ids.join(",") : "";
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);
  // Results for other documents than the scope now names are run again.
  useEffect(() => {
    if (state.ran && (state.within ?? "") !== within) run(state.ran);
  }, [within]);

  const run = async (q: string) => {
    const query = q.trim();
    if (!query) return;
    setBusy(true);
    setError("");
    const t0 = performance.now();
    try {
      const res = scope ? await api.searchIn(query, 20, scope.ids) : await api.search(query, 20);
      const hits = res?.hits ?? [];
      const { note, why } = searchNote(res?.info);
      const ms = performance.now() - t0;
      // The marks come from the backend, which matches as search does.
      const marks = has("Marks") && hits.length ? await api.marks(query, hits.map((h) => snippetOf(h))).then((m) => m.map((x) => x.marks ?? []), () => []) : [];
      setState({ query: q, ran: query, hits, marks, ms, note, why, scope: res?.info?.scope?.routed ? answerScopeText(res.info.scope) : "", within });
    } catch (e) {
      setError(errorMessage(e));
      setState({ query: q, ran: query, hits: [], marks: [], ms: 0, note: "", why: "", within });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="view">
      <header className="view-head">
        <div>
          <div className="eyebrow">Search</div>
          <h1>Find passages</h1>
          <p className="subtle">Keyword and meaning search over the project's documents, with the page each passage comes from.</p>
        </div>
      </header>

      <form
        className="search-box"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run(state.query);
        }}
      >
        <Icon name="search" size={18} />
        <input
          ref={input}
          type="search"
          value={state.query}
          onChange={(e) => setState({ ...state, query: e.target.value })}
          placeholder="Search your documents…"
          aria-label="Search query"
          data-testid="search-input"
        />
        <button className="btn btn-primary" type="submit" disabled={busy || !state.query.trim()}>
          {busy ? "Searching…" : "Search"}
        </button>
      </form>

      {scope && <ScopeChip scope={scope} onClear={props.onClearScope} verb="Searching" />}

      {error && <Notice tone="bad">{plainError(error)}</Notice>}

      {!state.ran && !error && (
        <p className="subtle hint-block">
          {props.hasDocuments ? "Type a few words, a phrase, or a question." : "The library is empty: import documents first, then search them here."}
        </p>
      )}

      {state.ran && !error && (
        <div className="results-meta subtle" data-testid="results-meta">
          {state.hits.length === 0
            ? `No passages match “${state.ran}”.`
            : `${state.hits.length} ${state.hits.length === 1 ? "passage" : "passages"} for “${state.ran}”`}
          {state.hits.length > 0 && state.ms > 0 && <span className="tabular"> · {Math.max(1, Math.round(state.ms))} ms</span>}
          {state.scope && (
            <div className="answer-scope" data-testid="search-scope">
              {state.scope}
            </div>
          )}
          {state.note && (
            <div className="search-note" data-testid="search-note">
              {state.note}
              {state.why && (
                <details>
                  <summary>Why</summary>
                  {state.why}
                </details>
              )}
            </div>
          )}
        </div>
      )}

      <ol className="results" data-testid="results">
        {state.hits.map((h, i) => (
          <li key={`${h.id}-${i}`}>
            <button className="result" onClick={() => props.onOpen(h)}>
              <div className="result-head">
                <span className="result-title">{h.doc_title || `Document ${h.doc_id}`}</span>
                {pageSpan(h.page_start, h.page_end) && <span className="result-page">{pageSpan(h.page_start, h.page_end)}</span>}
                <span className="result-score tabular" title="Relevance score (higher is better)">
                  {score(h.score)}
                </span>
              </div>
              {h.heading_path && h.heading_path.length > 0 && (
                <div className="crumbs">
                  {h.heading_path.map((c, j) => (
                    <span key={j} className="crumb">
                      {c}
                    </span>
                  ))}
                </div>
              )}
              <p className="snippet">
                <Marked segments={highlight(snippetOf(h), state.marks[i])} />
              </p>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
