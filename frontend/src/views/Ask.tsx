import { useEffect, useMemo, useRef, useState } from "react";
import { api, ASK_TOKEN, errorMessage, has, onEvent, type Answer, type Citation, type Path, type PlanStep, type Source, type Trace } from "../api";
import { Icon, Notice } from "../components/ui";
import { parseCitations } from "../lib/citations";
import { pageSpan, plainError } from "../lib/format";
import { answerScopeText, type Scope } from "../lib/scope";
import { answerOutcome, outcomeLabel, textHasFormula, withoutCellsLead } from "../lib/outcome";
import { ScopeChip } from "../components/ScopeChip";
import { stageText } from "../lib/eta";
import type { IndexingState } from "../library";
import { buildPathGraph, NODE_LABEL_MAX, pathChain, pathKindLabel, pathScore, pathsKindLine, type PathGraph } from "../lib/pathgraph";

export interface OpenSource {
  (s: Source, opts?: { title?: string; label?: string }): void;
}

/** What "show in graph" hands the explorer. */
export interface GraphHighlight {
  names: string[];
  relations: number[];
}

interface Turn {
  question: string;
  deep: boolean;
  /** The documents it was asked within (null: the whole project). */
  scope: Scope | null;
  streamed: string;
  answer: Answer | null;
  error: string;
}

/** Plan steps of a deep answer, from its trace (reason.Trace's plan): the
 * op with the step's question, its triple, or its expression. */
export function planSteps(trace: Trace | null | undefined): string[] {
  return (trace?.plan?.steps ?? []).map((s: PlanStep) => {
    if (s.question) return `${s.op}: ${s.question}`;
    const body = [s.subject, s.predicate, s.object].filter(Boolean).join(" · ") || s.expr || "";
    return body ? `${s.op}: ${body}` : s.op;
  });
}

export default function AskView({
  onOpenSource,
  onShowInGraph,
  focusKey,
  defaultDeep = false,
  scope = null,
  onClearScope,
  indexing = null,
}: {
  onOpenSource: OpenSource;
  onShowInGraph: (h: GraphHighlight) => void;
  focusKey: number;
  defaultDeep?: boolean;
  /** The documents questions are aimed at (the Library's selection); null: the whole project. */
  scope?: Scope | null;
  onClearScope?: () => void;
  /** The project's indexing, while it runs: answers then rest on what is indexed so far. */
  indexing?: IndexingState | null;
}) {
  const available = has("Ask");
  const [question, setQuestion] = useState("");
  const [deep, setDeep] = useState(defaultDeep);
  useEffect(() => setDeep(defaultDeep), [defaultDeep]); // the Settings default changed
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState<Answer[]>([]);
  const [selected, setSelected] = useState<number>(-1);
  const input = useRef<HTMLTextAreaElement>(null);
  const streamTo = useRef<number>(-1);
  // A new question scrolls to the top of the view, its answer below it.
  const turnsBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const last = turnsBox.current?.lastElementChild as HTMLElement | null | undefined;
    last?.scrollIntoView?.({ block: "start" });
  }, [turns.length]);

  useEffect(() => {
    input.current?.focus();
  }, [focusKey]);

  const loadHistory = () => {
    if (has("Answers")) api.answers().then((a) => setHistory(a ?? []), () => {});
  };
  useEffect(loadHistory, []);

  useEffect(
    () =>
      onEvent<{ token?: string } | string>(ASK_TOKEN, (d) => {
        const tok = typeof d === "string" ? d : (d?.token ?? "");
        const i = streamTo.current;
        if (i < 0 || !tok) return;
        setTurns((ts) => ts.map((t, j) => (j === i ? { ...t, streamed: t.streamed + tok } : t)));
      }),
    [],
  );

  const ask = async (e?: React.FormEvent) => {
    e?.preventDefault();
    const q = question.trim();
    if (!q || busy) return;
    const i = turns.length;
    streamTo.current = i;
    const within = scope && has("AskIn") ? scope : null;
    setTurns((ts) => [...ts, { question: q, deep, scope: within, streamed: "", answer: null, error: "" }]);
    setSelected(i);
    setQuestion("");
    setBusy(true);
    try {
      const a = within ? await api.askIn(q, deep, within.ids) : await api.ask(q, deep);
      setTurns((ts) => ts.map((t, j) => (j === i ? { ...t, answer: a } : t)));
      loadHistory();
    } catch (err) {
      setTurns((ts) => ts.map((t, j) => (j === i ? { ...t, error: errorMessage(err) } : t)));
    } finally {
      streamTo.current = -1;
      setBusy(false);
    }
  };

  const openPast = async (a: Answer) => {
    let full = a;
    if (a.id && has("Answer")) full = await api.answer(a.id).catch(() => a);
    setTurns((ts) => [...ts, { question: full.question, deep: full.mode === "deep", scope: null, streamed: "", answer: full, error: "" }]);
    setSelected(turns.length);
  };

  const current = selected >= 0 ? turns[selected] : turns[turns.length - 1];

  return (
    <div className="ask-layout" data-testid="ask">
      <div className="ask-main">
        <header className="view-head">
          <div>
            <div className="eyebrow">Ask</div>
            <h1>Ask your documents</h1>
            <p className="subtle">Answers cite the passages they rest on; the reasoning path is drawn on the right.</p>
          </div>
        </header>
        {!available && <Notice tone="info">Answering is not part of this build of Cairn yet. Search finds the passages meanwhile.</Notice>}
        {available && indexing?.running && (
          <Notice tone="info">
            <span data-testid="ask-indexing">
              Indexing is still running ({stageText(indexing.last?.stage ?? "")}). Answers rest on what is indexed so far; reasoning paths through the
              knowledge graph appear once it is built.
            </span>
          </Notice>
        )}

        <div className="turns" ref={turnsBox}>
          {turns.map((t, i) => (
            <TurnView key={i} turn={t} active={t === current} onSelect={() => setSelected(i)} onOpenSource={onOpenSource} />
          ))}
          {turns.length === 0 && history.length > 0 && (
            <div className="card history">
              <div className="eyebrow">Earlier questions</div>
              <ul>
                {history.slice(0, 12).map((a, i) => (
                  <li key={a.id ?? i}>
                    <button className="link" onClick={() => openPast(a)}>
                      {a.question}
                    </button>
                    {a.asked_at && <span className="subtle"> · {a.asked_at.slice(0, 16).replace("T", " ")}</span>}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>

        <form className="ask-box card" onSubmit={ask}>
          {scope && <ScopeChip scope={scope} onClear={onClearScope} />}
          <textarea
            ref={input}
            rows={2}
            value={question}
            data-testid="ask-input"
            placeholder={scope ? (scope.ids.length === 1 ? "Ask a question about this document…" : "Ask a question about these documents…") : "Ask a question about this project…"}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) ask(e);
            }}
            disabled={!available}
          />
          <div className="ask-actions">
            <label className="toggle" title="Deep answers plan several steps and check them; slower.">
              <input type="checkbox" checked={deep} onChange={(e) => setDeep(e.target.checked)} /> Deep
            </label>
            <span className="subtle kbd-hint">Enter to ask · Shift+Enter for a new line</span>
            <button className="btn btn-primary" type="submit" disabled={!available || busy || !question.trim()} data-testid="ask-submit">
              {busy ? "Answering…" : "Ask"}
            </button>
          </div>
        </form>
      </div>
      <ReasoningPanel answer={current?.answer ?? null} onOpenSource={onOpenSource} onShowInGraph={onShowInGraph} />
    </div>
  );
}

function TurnView({ turn, active, onSelect, onOpenSource }: { turn: Turn; active: boolean; onSelect: () => void; onOpenSource: OpenSource }) {
  const a = turn.answer;
  const cites = useMemo(() => new Map((a?.citations ?? []).map((c) => [c.n, c])), [a]);
  const text = a ? a.answer : turn.streamed;
  // An answer that leads with a short answer: the short answer apart, then
  // its supporting sentences (the text after the first blank line).
  const short = a?.short;
  const cut = short ? text.indexOf("\n\n") : -1;
  const full = short ? (cut >= 0 ? text.slice(cut + 2) : "") : text;
  // The table of cells shows the figures: the text's lead that states them
  // again is not shown twice.
  const body = a?.cells && a.cells.length > 0 ? withoutCellsLead(full, a.cells) : full;
  const segs = useMemo(() => parseCitations(body, cites.keys()), [body, cites]);
  const open = (c: Citation) => onOpenSource(c, { title: c.doc_title, label: `[${c.n}]` });
  // Evidence only and a decline are labelled; an answer needs no label.
  const outcome = a ? answerOutcome(a) : null;
  return (
    <article className={`turn card${active ? " active" : ""}`} onClick={onSelect}>
      <div className="turn-q">
        <span className="eyebrow">{turn.deep ? "Deep question" : "Question"}</span>
        <div>{turn.question}</div>
      </div>
      <AnswerScope turn={turn} />
      {turn.error ? (
        <Notice tone="bad">{plainError(turn.error)}</Notice>
      ) : (
        <div className={`turn-a${outcome && outcome !== "answer" ? ` outcome-${outcome}` : ""}`} data-testid="answer" data-outcome={outcome ?? undefined}>
          {!text && !a && <span className="subtle typing">Thinking…</span>}
          {outcome && outcome !== "answer" && (
            <div className={`answer-outcome outcome-${outcome}`} data-testid="answer-outcome">
              {outcomeLabel(outcome)}
            </div>
          )}
          {short && (
            <div className="short-answer" data-testid="short-answer">
              <span className="short-text">{short.text}</span>
              {cites.get(short.n) && (
                <button className="cite" data-testid="citation" onClick={(e) => (e.stopPropagation(), open(cites.get(short.n)!))}>
                  {short.n}
                </button>
              )}
            </div>
          )}
          {a?.cells && a.cells.length > 0 && <AnswerCells answer={a} shownText={body} onOpen={(n) => cites.get(n) && open(cites.get(n)!)} />}
          {short && body && <div className="eyebrow support-head">Supporting sentences</div>}
          <div className={short ? "support" : undefined} data-testid={short ? "support" : undefined}>
          {segs.map((s, i) =>
            s.kind === "text" ? (
              <span key={i}>{s.text}</span>
            ) : (
              <span key={i} className="cites">
                {s.n.map((n) => (
                  <button key={n} className="cite" data-testid="citation" title={cites.get(n)?.doc_title ? `${cites.get(n)!.doc_title}, ${pageSpan(cites.get(n)!.page_start, cites.get(n)!.page_end)}` : undefined} onClick={(e) => (e.stopPropagation(), open(cites.get(n)!))}>
                    {n}
                  </button>
                ))}
              </span>
            ),
          )}
          </div>
          {a && !a.declined && (a.citations?.length ?? 0) > 0 && (
            <div className="evidence">
              {outcome === "evidence" && <div className="eyebrow">Passages about the question</div>}
              {(a.citations ?? []).map((c) => (
                <button key={c.n} className="evidence-card" onClick={(e) => (e.stopPropagation(), open(c))} data-testid="evidence">
                  <span className="cite static">{c.n}</span>
                  <span className="evidence-body">
                    <span className="evidence-src">
                      {c.doc_title || `Document ${c.doc_id}`} · {pageSpan(c.page_start, c.page_end)}
                    </span>
                    <span className="evidence-text">{c.text}</span>
                  </span>
                </button>
              ))}
            </div>
          )}
          {a?.cut && (
            <Notice tone="warn">
              <span data-testid="answer-cut">Incomplete answer: {a.cut}.</span>
            </Notice>
          )}
          {a && <div className="subtle turn-meta">{a.mode === "deep" ? "Deep answer" : "Quick answer"}</div>}
        </div>
      )}
    </article>
  );
}

/** The table cells an answer reads its figures from, as a small table:
 * the row (and its section; where it ranks, when the question asked which
 * item has the most or least; the row of another table that named it, when
 * it was found by its figures), the column, the value as printed (a
 * citation opening the row in its source), then the arithmetic done on
 * them when the answer's text does not already state it. */
function AnswerCells({ answer, shownText, onOpen }: { answer: Answer; shownText: string; onOpen: (n: number) => void }) {
  const cells = answer.cells ?? [];
  return (
    <div className="answer-cells" data-testid="answer-cells">
      <div className="eyebrow">From a table{cells[0]?.unit ? ` · ${cells[0].unit}` : ""}</div>
      <table>
        <thead>
          <tr>
            <th>Row</th>
            <th>Column</th>
            <th>Value</th>
          </tr>
        </thead>
        <tbody>
          {cells.map((c, i) => (
            <tr key={i} data-testid="answer-cell">
              <td>
                {c.row}
                {c.section && <span className="subtle"> · {c.section}</span>}
                {c.rank && <span className="subtle" data-testid="answer-cell-rank"> · {c.rank}</span>}
                {c.via && <span className="subtle" data-testid="answer-cell-via"> · the figures of “{c.via}” in another table</span>}
              </td>
              <td>{c.column}</td>
              <td className="num">
                <button className="cite-value" title="Open the row in its source" onClick={(e) => (e.stopPropagation(), onOpen(c.n))}>
                  {c.value}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer.formula && !textHasFormula(shownText, answer.formula) && (
        <div className="formula" data-testid="answer-formula">
          {answer.formula}
        </div>
      )}
    </div>
  );
}

/** What a turn says of its scope: the documents the user chose, or those
 * the question was routed to and the words that sent it there. */
function AnswerScope({ turn }: { turn: Turn }) {
  const s = turn.answer?.scope ?? (turn.scope ? { docs: turn.scope.ids, titles: turn.scope.titles } : null);
  const text = answerScopeText(s);
  if (!text) return null;
  return (
    <div className="answer-scope" data-testid="answer-scope" data-routed={s?.routed ? "1" : "0"}>
      {text}
    </div>
  );
}

export function ReasoningPanel({ answer, onOpenSource, onShowInGraph }: { answer: Answer | null; onOpenSource: OpenSource; onShowInGraph: (h: GraphHighlight) => void }) {
  const g = useMemo(() => buildPathGraph(answer?.paths), [answer]);
  const steps = useMemo(() => planSteps(answer?.trace), [answer]);
  const paths: Path[] = answer?.paths ?? [];
  const show = () => {
    const chosen = g.chosen >= 0 ? paths[g.chosen] : undefined;
    if (!chosen) return;
    onShowInGraph({ names: pathChain(chosen), relations: (chosen.edges ?? []).map((e) => e.relation ?? 0).filter(Boolean) });
  };
  return (
    <aside className="reasoning" data-testid="reasoning" aria-label="Reasoning">
      <div className="reasoning-head">
        <div className="eyebrow">Reasoning</div>
        {g.chosen >= 0 && (
          <button className="btn btn-small" onClick={show} data-testid="show-in-graph">
            Show in graph
          </button>
        )}
      </div>
      {!answer && <p className="subtle">Ask a question to see how the answer was reached: the paths through your documents, scored, with the chosen one emphasised.</p>}
      {answer && paths.length === 0 && <p className="subtle">This answer rests on passages directly; no multi-step path was needed.</p>}
      {paths.length > 0 && pathsKindLine(paths) && (
        <p className="subtle" data-testid="path-kind">
          {pathsKindLine(paths)}
        </p>
      )}
      {g.nodes.length > 0 && <PathDrawing g={g} onOpenSource={onOpenSource} />}
      {paths.length > 0 && (
        <ol className="path-list">
          {g.order.map((pi) => (
            <li key={pi} className={pi === g.chosen ? "chosen" : ""}>
              <span className="path-score tabular">{pathScore(paths[pi])}</span>
              <span className="path-chain">{pathChain(paths[pi]).join(" → ")}</span>
              {paths[pi].kind && <span className="subtle"> · {pathKindLabel(paths[pi].kind)}</span>}
            </li>
          ))}
        </ol>
      )}
      {(answer?.trace?.paths_dropped ?? 0) > 0 && (
        <p className="subtle" data-testid="paths-dropped">
          {answer!.trace!.paths_dropped === 1 ? "One path touching neither the question nor the answer is not drawn." : `${answer!.trace!.paths_dropped} paths touching neither the question nor the answer are not drawn.`}
        </p>
      )}
      {steps.length > 0 && (
        <div className="plan">
          <div className="eyebrow">Plan</div>
          <ol>
            {steps.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
        </div>
      )}
    </aside>
  );
}

function PathDrawing({ g, onOpenSource }: { g: PathGraph; onOpenSource: OpenSource }) {
  const pos = new Map(g.nodes.map((n) => [n.key, n]));
  const w = Math.max(g.width, 280);
  const h = Math.max(g.height, 80);
  return (
    <div className="path-drawing">
      <svg viewBox={`0 0 ${w} ${h}`} width="100%" style={{ minWidth: Math.min(w, 260), maxWidth: w }} preserveAspectRatio="xMinYMin meet" role="img" aria-label="Reasoning paths" data-testid="path-graph">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0 10 5 0 10z" fill="#9aa2a7" />
          </marker>
          <marker id="arrow-chosen" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0 10 5 0 10z" fill="#2b5866" />
          </marker>
        </defs>
        {g.edges.map((e) => {
          const a = pos.get(e.from)!;
          const b = pos.get(e.to)!;
          const dx = b.x - a.x;
          const dy = b.y - a.y;
          const len = Math.hypot(dx, dy) || 1;
          const r = 9;
          const x1 = a.x + (dx / len) * r;
          const y1 = a.y + (dy / len) * r;
          const x2 = b.x - (dx / len) * (r + 2);
          const y2 = b.y - (dy / len) * (r + 2);
          const self = e.from === e.to;
          // Parallel edges bend apart: control point off the middle, perpendicular.
          const off = e.lane * 34;
          const cx = (a.x + b.x) / 2 - (dy / len) * off;
          const cy = (a.y + b.y) / 2 + (dx / len) * off;
          const lx = (a.x + 2 * cx + b.x) / 4;
          const ly = (a.y + 2 * cy + b.y) / 4;
          return (
            <g key={e.key} className={`pedge${e.chosen ? " chosen" : ""}`} onClick={() => onOpenSource(e.source, { label: e.label })} role="button" tabIndex={0} onKeyDown={(ev) => ev.key === "Enter" && onOpenSource(e.source, { label: e.label })} data-testid="path-edge">
              <title>{`${e.sentence ?? e.label} — open the passage (${pageSpan(e.source.page_start, e.source.page_end)})`}</title>
              {self ? (
                <path d={`M${a.x} ${a.y - r} c 20 -30, 40 0, 10 10`} />
              ) : (
                <path d={`M${x1} ${y1} Q${cx} ${cy} ${x2} ${y2}`} markerEnd={`url(#${e.chosen ? "arrow-chosen" : "arrow"})`} />
              )}
              <path className="hit" d={`M${x1} ${y1} Q${cx} ${cy} ${x2} ${y2}`} />
              <text x={lx} y={ly - 6} textAnchor="middle" className={e.sentence ? "quoted" : undefined}>
                {e.label.length > 26 ? e.label.slice(0, 25) + "…" : e.label}
              </text>
            </g>
          );
        })}
        {g.nodes.map((n) => (
          <g key={n.key} className={`pnode${n.chosen ? " chosen" : ""}`} transform={`translate(${n.x} ${n.y})`}>
            <circle r={8} />
            <text y={24} textAnchor="middle">
              {n.label.length > NODE_LABEL_MAX ? n.label.slice(0, NODE_LABEL_MAX - 1) + "…" : n.label}
            </text>
            <title>{n.label}</title>
          </g>
        ))}
      </svg>
    </div>
  );
}

export function AskIcon() {
  return <Icon name="ask" />;
}
