// Settings: the Ollama connection (host, offline), chat and embedding
// models (list, download with progress, cancel), the project's passage
// embedder (switch with progress), context size, the Ask view's default
// mode, the theme, and the configuration that lets an MCP client use the
// open project (`cairn mcp`).
import { useCallback, useEffect, useState } from "react";
import {
  api,
  EMBED_DONE,
  EMBED_PROGRESS,
  errorMessage,
  has,
  MODELS_PULL,
  onEvent,
  type EmbedderStatus,
  type MCPConfig,
  type ModelsInfo,
  type PullEvent,
  type ReembedProgress,
  type Settings,
} from "../api";
import { Chip, Icon, Notice, ProgressBar } from "../components/ui";
import { etaText, nsToSeconds } from "../lib/eta";
import { fileSize, plainError } from "../lib/format";
import { pullFraction, pullText, type Theme } from "../lib/settings";

const CONTEXT_SIZES = [0, 4096, 8192, 16384, 32768, 65536];

export default function SettingsView({ mode, theme, setTheme }: { mode: string; theme: Theme; setTheme: (t: Theme) => void }) {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [mcpVersion, setMcpVersion] = useState(0);
  const [form, setForm] = useState<Settings | null>(null);
  const [models, setModels] = useState<ModelsInfo | null>(null);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [saving, setSaving] = useState(false);
  const [pullName, setPullName] = useState("");
  const [pull, setPull] = useState<PullEvent | null>(null);
  const [pullMsg, setPullMsg] = useState<{ tone: "ok" | "bad" | "warn"; text: string } | null>(null);
  const [emb, setEmb] = useState<EmbedderStatus | null>(null);
  const [embTarget, setEmbTarget] = useState("");
  const [reembed, setReembed] = useState<ReembedProgress | null>(null);
  const [embMsg, setEmbMsg] = useState<{ tone: "ok" | "bad" | "warn"; text: string } | null>(null);
  const [version, setVersion] = useState("");

  const loadModels = useCallback(() => {
    api.models().then(setModels, (e) => setError(errorMessage(e)));
  }, []);
  const loadEmbedder = useCallback(() => {
    api.embedderStatus().then(setEmb, () => setEmb(null));
  }, []);

  useEffect(() => {
    api.getSettings().then(
      (s) => {
        setSaved(s);
        setForm(s);
      },
      (e) => setError(errorMessage(e)),
    );
    loadModels();
    loadEmbedder();
    if (has("Version")) api.version().then(setVersion, () => {});
    const offs = [
      onEvent<PullEvent>(MODELS_PULL, (p) => {
        if (!p) return;
        if (p.finished) {
          setPull(p.error ? null : { ...p, done: true });
          setPullMsg(
            p.cancelled
              ? { tone: "warn", text: `Download of ${p.model} cancelled.` }
              : p.error
                ? { tone: "bad", text: `Download of ${p.model} failed: ${plainError(p.error)}` }
                : { tone: "ok", text: `${p.model} is installed.` },
          );
          loadModels();
        } else setPull(p);
      }),
      onEvent<ReembedProgress>(EMBED_PROGRESS, (p) => p && setReembed(p)),
      onEvent<{ model: string; error?: string; cancelled?: boolean }>(EMBED_DONE, (d) => {
        setReembed(null);
        setEmbMsg(
          d?.error
            ? { tone: d.cancelled ? "warn" : "bad", text: d.cancelled ? "The switch stopped; it resumes where it left off when you start it again." : plainError(d.error) }
            : { tone: "ok", text: `Passages are now embedded with ${d?.model}.` },
        );
        loadEmbedder();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [loadModels, loadEmbedder]);

  // The models list follows the mode (Ollama started or stopped).
  useEffect(() => loadModels(), [mode, loadModels]);

  const save = async (next: Settings) => {
    setSaving(true);
    setError("");
    try {
      const s = await api.saveSettings(next);
      setSaved(s);
      setForm(s);
      setMcpVersion((v) => v + 1); // the snippet carries the Ollama choice
      setNote("Saved.");
      setTimeout(() => setNote(""), 2500);
      loadModels();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const startPull = async (name: string) => {
    if (!name.trim()) return;
    setPullMsg(null);
    setPull({ model: name, status: "starting", completed_bytes: 0, total_bytes: 0, percent: 0, bytes_per_s: 0, eta_ns: 0, elapsed_ns: 0 });
    try {
      await api.pullModel(name.trim());
    } catch (e) {
      setPull(null);
      setPullMsg({ tone: "bad", text: plainError(errorMessage(e)) });
    }
  };

  const startSwitch = async () => {
    if (!embTarget) return;
    setEmbMsg(null);
    setReembed({ target: { model: embTarget, dim: 0 }, done: 0, total: emb?.total ?? 0 });
    try {
      await api.switchEmbedder(embTarget);
    } catch (e) {
      setReembed(null);
      setEmbMsg({ tone: "bad", text: plainError(errorMessage(e)) });
    }
  };

  const list = models?.models ?? [];
  const chatModels = list.filter((m) => !m.embedding);
  const embedModels = list.filter((m) => m.embedding);
  const status = models?.status;
  const dirty = !!form && !!saved && JSON.stringify(form) !== JSON.stringify(saved);
  const pulling = !!pull && !pull.done;
  const recommended = [...(models?.recommended?.chat ?? []), ...(models?.recommended?.embed ?? [])].filter((n) => !list.some((m) => m.name === n || m.name === `${n}:latest`));

  return (
    <div className="view settings" data-testid="settings">
      <header className="view-head">
        <div>
          <div className="eyebrow">Cairn</div>
          <h1>Settings</h1>
          <p className="subtle">Everything stays on this computer. Models run in Ollama; without it Cairn answers with its built-in offline engine.</p>
        </div>
      </header>

      {error && (
        <Notice tone="bad" onClose={() => setError("")}>
          {plainError(error)}
        </Notice>
      )}

      <section className="card settings-card" aria-labelledby="s-conn">
        <div className="settings-head">
          <h2 id="s-conn">Language model</h2>
          <span className={`mode mode-${mode}`} data-testid="settings-mode">
            <span className="mode-dot" />
            {mode === "ollama" ? "Ollama" : "Offline"}
          </span>
        </div>
        <p className="subtle settings-status" data-testid="llm-status">
          {status?.mode === "ollama"
            ? `Connected to Ollama ${status.version ?? ""} at ${status.host}: chat ${status.chat_model}${status.embed_model ? `, embeddings ${status.embed_model}` : ""}.`
            : status?.reason
              ? `Offline: ${status.reason}.`
              : "Offline."}
          {status?.notes?.length ? ` ${status.notes.join("; ")}.` : ""}
        </p>
        {form && (
          <form
            className="settings-form"
            onSubmit={(e) => {
              e.preventDefault();
              save(form);
            }}
          >
            <label className="field">
              <span>Ollama address</span>
              <input className="input" value={form.ollama_host} placeholder="http://127.0.0.1:11434" onChange={(e) => setForm({ ...form, ollama_host: e.target.value })} data-testid="ollama-host" spellCheck={false} />
            </label>
            <label className="check">
              <input type="checkbox" checked={form.offline} onChange={(e) => setForm({ ...form, offline: e.target.checked })} data-testid="offline-toggle" />
              <span>Offline mode: never use Ollama, even when it runs</span>
            </label>
            <div className="field-row">
              <label className="field">
                <span>Chat model</span>
                <select className="input" value={form.chat_model} onChange={(e) => setForm({ ...form, chat_model: e.target.value })} data-testid="chat-model">
                  <option value="">Recommended ({models?.recommended?.chat?.[0] ?? "default"})</option>
                  {chatModels.map((m) => (
                    <option key={m.name} value={m.name}>
                      {m.name}
                    </option>
                  ))}
                  {form.chat_model && !chatModels.some((m) => m.name === form.chat_model) && <option value={form.chat_model}>{form.chat_model} (not installed)</option>}
                </select>
              </label>
              <label className="field">
                <span>Embedding model</span>
                <select className="input" value={form.embed_model} onChange={(e) => setForm({ ...form, embed_model: e.target.value })} data-testid="embed-model">
                  <option value="">Recommended ({models?.recommended?.embed?.[0] ?? "default"})</option>
                  {embedModels.map((m) => (
                    <option key={m.name} value={m.name}>
                      {m.name}
                    </option>
                  ))}
                  {form.embed_model && !embedModels.some((m) => m.name === form.embed_model) && <option value={form.embed_model}>{form.embed_model} (not installed)</option>}
                </select>
              </label>
            </div>
            <div className="field-row">
              <label className="field">
                <span>Context size</span>
                <select className="input" value={form.context_size} onChange={(e) => setForm({ ...form, context_size: Number(e.target.value) })} data-testid="context-size">
                  {CONTEXT_SIZES.map((n) => (
                    <option key={n} value={n}>
                      {n === 0 ? "Automatic (from 8,192 tokens)" : `${n.toLocaleString("en-US")} tokens`}
                    </option>
                  ))}
                </select>
              </label>
              <div className="field">
                <span>Default answer mode</span>
                <div className="segmented" role="radiogroup" aria-label="Default answer mode">
                  {(["quick", "deep"] as const).map((m) => (
                    <button type="button" key={m} role="radio" aria-checked={form.answer_mode === m} className={form.answer_mode === m ? "seg active" : "seg"} onClick={() => setForm({ ...form, answer_mode: m })} data-testid={`answer-mode-${m}`}>
                      {m === "quick" ? "Quick" : "Deep (plans several steps)"}
                    </button>
                  ))}
                </div>
              </div>
            </div>
            <div className="form-actions">
              {note && <span className="subtle">{note}</span>}
              <button type="button" className="btn" disabled={!dirty || saving} onClick={() => setForm(saved)}>
                Revert
              </button>
              <button type="submit" className="btn btn-primary" disabled={!dirty || saving} data-testid="settings-save">
                {saving ? "Saving…" : "Save"}
              </button>
            </div>
          </form>
        )}
      </section>

      <section className="card settings-card" aria-labelledby="s-models">
        <div className="settings-head">
          <h2 id="s-models">Installed models</h2>
          <button className="btn btn-small" onClick={loadModels} title="Ask Ollama again">
            <Icon name="retry" size={14} /> Refresh
          </button>
        </div>
        {models?.error && <p className="subtle">Ollama did not list its models: {plainError(models.error)}</p>}
        {list.length === 0 && !models?.error ? (
          <p className="subtle">{status?.mode === "ollama" ? "No models installed yet." : "Connect to Ollama to see and download models."}</p>
        ) : (
          <table className="models" data-testid="models">
            <thead>
              <tr>
                <th>Model</th>
                <th>Kind</th>
                <th>Size</th>
                <th className="num">Context</th>
              </tr>
            </thead>
            <tbody>
              {list.map((m) => (
                <tr key={m.name} data-model={m.name}>
                  <td className="mono">
                    {m.name}
                    {(m.name === status?.chat_model || m.name === status?.embed_model) && (
                      <>
                        {" "}
                        <Chip tone="ok">in use</Chip>
                      </>
                    )}
                  </td>
                  <td>{m.embedding ? "Embeddings" : m.thinking ? "Chat (reasoning)" : "Chat"}</td>
                  <td className="tabular">
                    {m.parameter_size ?? ""} {m.quantization ?? ""} {m.size_bytes ? `· ${fileSize(m.size_bytes)}` : ""}
                  </td>
                  <td className="num tabular">{m.context_length ? m.context_length.toLocaleString("en-US") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form
          className="pull-form"
          onSubmit={(e) => {
            e.preventDefault();
            startPull(pullName);
          }}
        >
          <input className="input" list="recommended-models" value={pullName} onChange={(e) => setPullName(e.target.value)} placeholder="Model to download, e.g. qwen2.5:7b-instruct" aria-label="Model to download" data-testid="pull-name" disabled={pulling} spellCheck={false} />
          <datalist id="recommended-models">
            {recommended.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          {pulling ? (
            <button type="button" className="btn" onClick={() => api.cancelPull()} data-testid="pull-cancel">
              Cancel
            </button>
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!pullName.trim() || status?.mode !== "ollama"} data-testid="pull-start">
              <Icon name="import" size={15} /> Download
            </button>
          )}
        </form>
        {pull && (
          <div className="pull-progress" data-testid="pull-progress" data-percent={Math.round(pullFraction(pull) * 100)}>
            <div className="import-line">
              <span className="mono">{pull.model}</span>
              <span className="subtle tabular" data-testid="pull-text">
                {pullText(pull)}
              </span>
            </div>
            <ProgressBar value={pullFraction(pull)} label={`Downloading ${pull.model}`} />
          </div>
        )}
        {pullMsg && (
          <Notice tone={pullMsg.tone} onClose={() => setPullMsg(null)}>
            {pullMsg.text}
          </Notice>
        )}
      </section>

      <section className="card settings-card" aria-labelledby="s-embed">
        <h2 id="s-embed">This project’s passage embeddings</h2>
        <p className="subtle" data-testid="embedder-current">
          {emb ? (
            <>
              Made by <span className="mono">{emb.current.model}</span> ({emb.current.dim} dimensions), {emb.total.toLocaleString("en-US")} passages.
              {emb.pending?.dim ? ` An unfinished switch to ${emb.pending.model} has ${emb.done} of ${emb.total} done.` : ""}
            </>
          ) : (
            "—"
          )}
        </p>
        <div className="pull-form">
          <select className="input" value={embTarget} onChange={(e) => setEmbTarget(e.target.value)} aria-label="Embedder to switch to" data-testid="embed-target" disabled={!!reembed}>
            <option value="">Choose an embedder…</option>
            <option value="builtin">Built-in (offline, fast)</option>
            {embedModels.map((m) => (
              <option key={m.name} value={m.name}>
                {m.name} (Ollama)
              </option>
            ))}
          </select>
          <button className="btn" disabled={!embTarget || !!reembed} onClick={startSwitch} data-testid="embed-switch">
            Re-embed passages
          </button>
        </div>
        <p className="hint">Search keeps working on the current vectors while the passages are re-embedded; the switch happens at the end.</p>
        {reembed && (
          <div className="pull-progress" data-testid="embed-progress">
            <div className="import-line">
              <span className="mono">{reembed.target.model}</span>
              <span className="subtle tabular">
                {reembed.total ? `${reembed.done} of ${reembed.total}` : "starting…"} {etaText(nsToSeconds(reembed.eta_ns))}
              </span>
            </div>
            <ProgressBar value={reembed.total ? reembed.done / reembed.total : 0} label="Re-embedding" />
          </div>
        )}
        {embMsg && (
          <Notice tone={embMsg.tone} onClose={() => setEmbMsg(null)}>
            {embMsg.text}
          </Notice>
        )}
      </section>

      <McpSnippet version={mcpVersion} />

      <section className="card settings-card" aria-labelledby="s-look">
        <h2 id="s-look">Appearance</h2>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {(["light", "dark"] as const).map((t) => (
            <button type="button" key={t} role="radio" aria-checked={theme === t} className={theme === t ? "seg active" : "seg"} onClick={() => setTheme(t)} data-testid={`theme-${t}`}>
              {t === "light" ? "Light" : "Dark"}
            </button>
          ))}
        </div>
      </section>

      <section className="card settings-card" aria-labelledby="s-about">
        <h2 id="s-about">About</h2>
        <p className="hint" data-testid="about-version">
          {version || "Cairn"} — local-first answers over your documents. Nothing leaves your machine.
        </p>
      </section>
    </div>
  );
}

/** Copies text with the desktop runtime's clipboard, else the browser's. */
async function copyText(text: string): Promise<void> {
  const rt = (window as unknown as { runtime?: { ClipboardSetText?: (t: string) => Promise<boolean> } }).runtime;
  if (rt?.ClipboardSetText && (await rt.ClipboardSetText(text))) return;
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw "This window cannot write to the clipboard: select the text and copy it.";
}

/** The configuration to paste into an MCP client (an assistant or agent)
 * so it can search and ask the open project through `cairn mcp`. */
export function McpSnippet({ version = 0 }: { version?: number }) {
  const [cfg, setCfg] = useState<MCPConfig | null>(null);
  const [error, setError] = useState("");
  const [copied, setCopied] = useState<"" | "ok" | "bad">("");
  useEffect(() => {
    api.mcpConfig().then(
      (c) => {
        setCfg(c);
        setError("");
      },
      (e) => setError(errorMessage(e)),
    );
  }, [version]);
  const copy = async () => {
    if (!cfg) return;
    try {
      await copyText(cfg.snippet);
      setCopied("ok");
    } catch (e) {
      setCopied("bad");
      setError(errorMessage(e));
    }
    setTimeout(() => setCopied(""), 2500);
  };
  return (
    <section className="card settings-card" aria-labelledby="s-mcp" data-testid="mcp-config">
      <div className="settings-head">
        <h2 id="s-mcp">Use this project from an MCP client</h2>
        <button className="btn btn-small" onClick={copy} disabled={!cfg} data-testid="mcp-copy">
          {copied === "ok" ? "Copied" : "Copy"}
        </button>
      </div>
      <p className="subtle">
        Assistants and agents that speak the Model Context Protocol can search and ask this project, with every answer cited to its page. Paste this into the client’s
        configuration (its <span className="mono">mcpServers</span> section). The server runs on this computer over stdio, reads only this project, and cannot change it.
      </p>
      {error && <p className="subtle">{plainError(error)}</p>}
      {cfg && (
        <pre className="mono mcp-snippet" data-testid="mcp-snippet">
          {cfg.snippet}
        </pre>
      )}
      <p className="hint">
        Tools: search, ask, get_passage, list_documents, document_outline, entity. To let the client import files placed inside the project folder, add{" "}
        <span className="mono">--allow-import</span> to the arguments.
      </p>
    </section>
  );
}
