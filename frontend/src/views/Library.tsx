import { useEffect, useRef, useState } from "react";
import { api, canPickFiles, errorMessage, has, type Document, type DocumentIdentity, type ImportDone } from "../api";
import { etaText, stageText } from "../lib/eta";
import { Chip, ConfirmDialog, Icon, Notice, ProgressBar, StatusChip } from "../components/ui";
import { count, fileName, importFraction, kindLabel, plainError, progressText, statusLabel } from "../lib/format";
import type { Library } from "../library";
import { saveText } from "../lib/save";
import { askable, docCount, docTitle, identityLine, keepSelected, toggle } from "../lib/scope";

/** "4 files imported: 3 ready, 1 needs OCR." */
export function summarise(done: ImportDone): string {
  const n = done.results.length;
  const by = new Map<string, number>();
  for (const r of done.results) by.set(r.status, (by.get(r.status) ?? 0) + 1);
  const parts = [...by.entries()].map(([status, k]) => `${k} ${statusLabel(status).label.toLowerCase()}`);
  return `${n} ${n === 1 ? "file" : "files"} processed${parts.length ? ": " + parts.join(", ") : ""}.`;
}

export function splitPaths(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((s) => s.trim().replace(/^["']|["']$/g, ""))
    .filter(Boolean);
}

/** The Library: documents with status, import and indexing progress; a
 * selection to ask ("Ask these 2"), one document to ask, and a document's
 * title, organisation, kind and period to edit in place. */
export default function LibraryView({ lib, onOpen, onAsk }: { lib: Library; onOpen: (doc: Document) => void; onAsk?: (docs: Document[]) => void }) {
  const [pathsText, setPathsText] = useState("");
  const [showPaths, setShowPaths] = useState(false);
  const [callError, setCallError] = useState("");
  const [toRemove, setToRemove] = useState<Document | null>(null);
  const [removing, setRemoving] = useState(false);
  const [pwFor, setPwFor] = useState(0);
  const [password, setPassword] = useState("");
  const [saved, setSaved] = useState("");
  const [exporting, setExporting] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState(0);
  const canAsk = !!onAsk && has("AskIn");
  const canEdit = has("EditDocumentIdentity");

  // The selection keeps to the documents still listed and askable.
  useEffect(() => {
    setSelected((s) => {
      const kept = keepSelected(s, lib.docs);
      return kept.length === s.length ? s : kept;
    });
  }, [lib.docs]);
  const askableDocs = lib.docs.filter(askable);
  const allSelected = askableDocs.length > 0 && selected.length === askableDocs.length;
  const askSelected = () => onAsk?.(lib.docs.filter((d) => selected.includes(d.id)));

  // A document as Markdown (App.ExportDocumentMarkdown: what `cairn text
  // --format md` prints), saved where the user says (desktop) or downloaded.
  const exportMarkdown = async (d: Document) => {
    setCallError("");
    setSaved("");
    setExporting(d.id);
    try {
      const md = await api.exportDocumentMarkdown(d.id);
      const where = await saveText(fileName(d.title || d.file_name.replace(/\.[^.]*$/, ""), "md"), md, "text/markdown");
      if (where) setSaved(where);
    } catch (e) {
      setCallError(errorMessage(e));
    } finally {
      setExporting(0);
    }
  };

  // Stored originals no document references (a crash lost their records):
  // offered for import again, as `cairn check --repair` does.
  const [orphans, setOrphans] = useState<string[]>([]);
  useEffect(() => {
    if (!has("OrphanedOriginals") || lib.importing.running) return;
    let live = true;
    api
      .orphanedOriginals()
      .then((o) => live && setOrphans(o ?? []))
      .catch(() => live && setOrphans([]));
    return () => {
      live = false;
    };
  }, [lib.docs, lib.importing.running]);

  const retry = (d: Document, pw = "") => {
    setPwFor(0);
    setPassword("");
    startImport(() => api.retryDocument(d.id, pw));
  };

  const startImport = async (run: () => Promise<unknown>) => {
    setCallError("");
    try {
      await run();
    } catch (e) {
      setCallError(errorMessage(e));
    }
  };

  const onImportClick = () => {
    if (canPickFiles) startImport(() => api.pickAndImport());
    else setShowPaths((v) => !v);
  };

  const submitPaths = (e: React.FormEvent) => {
    e.preventDefault();
    const paths = splitPaths(pathsText);
    if (paths.length === 0) {
      setCallError("Type the path of at least one file or folder on this computer.");
      return;
    }
    setPathsText("");
    setShowPaths(false);
    startImport(() => api.importPaths(paths));
  };

  const confirmRemove = async () => {
    if (!toRemove) return;
    setRemoving(true);
    try {
      await api.removeDocuments([toRemove.id]);
      setToRemove(null);
    } catch (e) {
      setCallError(errorMessage(e));
      setToRemove(null);
    } finally {
      setRemoving(false);
      lib.reload();
    }
  };

  const { importing, lastDone } = lib;
  const failed = lastDone?.results.filter((r) => r.status !== "ok" && r.status !== "duplicate") ?? [];
  const passages = lib.docs.reduce((n, d) => n + (d.chunks ?? 0), 0);
  const pages = lib.docs.reduce((n, d) => n + (d.pages ?? 0), 0);

  return (
    <div className="view" data-testid="library">
      <header className="view-head">
        <div>
          <div className="eyebrow">Project</div>
          <h1>{lib.info?.name || "Library"}</h1>
          <p className="subtle">
            {count(lib.docs.length)} {lib.docs.length === 1 ? "document" : "documents"} · {count(pages)} pages · {count(passages)} passages
          </p>
        </div>
        <div className="head-actions">
          {has("Reindex") && lib.docs.length > 0 && (
            <button className="btn" onClick={() => startImport(() => api.reindex())} disabled={lib.indexing.running || importing.running} title="Build what is missing of the knowledge graph and mind maps" data-testid="reindex-button">
              <Icon name="retry" size={16} />
              Re-index
            </button>
          )}
          <button className="btn btn-primary" onClick={onImportClick} disabled={importing.running && canPickFiles} data-testid="import-button">
            <Icon name="import" size={16} />
            {canPickFiles ? "Import files…" : "Import"}
          </button>
        </div>
      </header>

      {!canPickFiles && showPaths && (
        <form className="paths-form card" onSubmit={submitPaths}>
          <label htmlFor="paths">Files or folders on the machine running Cairn</label>
          <p className="hint">In the browser Cairn cannot see your files, so give their paths: one per line. Folders are imported with everything in them.</p>
          <textarea
            id="paths"
            rows={3}
            value={pathsText}
            placeholder={"/home/me/Documents/report.pdf\n/home/me/Documents/contracts"}
            onChange={(e) => setPathsText(e.target.value)}
            spellCheck={false}
          />
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setShowPaths(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" data-testid="import-submit">
              Import
            </button>
          </div>
        </form>
      )}

      {importing.running && (
        <div className="card import-card" data-testid="import-progress">
          <div className="import-line">
            <span>{progressText(importing.last)}</span>
            <span className="subtle tabular">{Math.round(importFraction(importing.last) * 100)}%</span>
          </div>
          <ProgressBar value={importFraction(importing.last)} label="Import progress" />
        </div>
      )}

      {lib.indexing.running && (
        <div className="card import-card index-card" data-testid="index-progress">
          <div className="import-line">
            <span>
              {stageText(lib.indexing.last?.stage ?? "")}
              {lib.indexing.last?.note ? ` · ${lib.indexing.last.note}` : ""}
            </span>
            <span className="subtle tabular">
              {lib.indexing.last?.total ? `${lib.indexing.last.done} of ${lib.indexing.last.total}${lib.indexing.last.stage === "ocr" ? " pages" : ""}` : "starting…"}
              {lib.indexing.eta !== null && lib.indexing.eta !== undefined ? ` · ${etaText(lib.indexing.eta)}` : ""}
            </span>
          </div>
          <ProgressBar value={lib.indexing.last?.total ? lib.indexing.last.done / lib.indexing.last.total : 0} label="Indexing progress" />
        </div>
      )}
      {orphans.length > 0 && !lib.importing.running && (
        <Notice tone="warn">
          <span data-testid="orphans-notice">
            {orphans.length === 1 ? "1 original in the project folder is" : `${orphans.length} originals in the project folder are`} not in the library (its record was lost, or an import was interrupted).{" "}
            <button className="btn btn-small" onClick={() => startImport(() => api.repairOrphans())} data-testid="repair-orphans">
              Import again
            </button>
          </span>
        </Notice>
      )}
      {lib.indexing.error && !lib.indexing.running && <Notice tone="bad">Indexing stopped: {plainError(lib.indexing.error)}</Notice>}
      {lib.indexing.warning && !lib.indexing.running && !lib.indexing.error && (
        <Notice tone="warn">{lib.indexing.warning}</Notice>
      )}

      {saved && (
        <Notice tone="ok" onClose={() => setSaved("")}>
          <span data-testid="export-saved">
            {canPickFiles ? "Saved to" : "Downloaded"} {saved}.
          </span>
        </Notice>
      )}
      {callError && (
        <Notice tone="bad" onClose={() => setCallError("")}>
          {plainError(callError)}
        </Notice>
      )}
      {lastDone && !importing.running && (
        <Notice tone={lastDone.error ? "bad" : failed.length ? "warn" : "ok"} onClose={lib.dismissDone}>
          {lastDone.error ? <strong>The import stopped: {plainError(lastDone.error)}</strong> : <strong>{summarise(lastDone)}</strong>}
          {failed.length > 0 && (
            <ul className="result-list">
              {failed.map((r) => (
                <li key={r.file}>
                  <span className="mono">{r.file.split(/[\\/]/).pop()}</span> — {plainError(r.error, r.error_code) || statusLabel(r.status).help}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      {lib.error && (
        <Notice tone="bad">
          <strong>The library could not be loaded.</strong> {plainError(lib.error)}
        </Notice>
      )}

      {lib.loaded && lib.docs.length === 0 && !lib.error ? (
        <div className="empty card">
          <Icon name="drop" size={28} />
          <h2>No documents yet</h2>
          <p>
            {canPickFiles
              ? "Import PDF or Word files, or drop them onto this window. Everything stays on this computer."
              : "Import PDF or Word files by their paths. Everything stays on this computer."}
          </p>
        </div>
      ) : (
        lib.docs.length > 0 && (
          <div className="card table-card">
            {canAsk && (
              <SelectionBar count={selected.length} onAsk={askSelected} onClear={() => setSelected([])} />
            )}
            <table className="docs" data-testid="documents">
              <thead>
                <tr>
                  {canAsk && (
                    <th className="pick">
                      <input
                        type="checkbox"
                        checked={allSelected}
                        disabled={askableDocs.length === 0}
                        onChange={() => setSelected(allSelected ? [] : askableDocs.map((d) => d.id))}
                        aria-label="Select every document"
                        title="Select every document"
                        data-testid="doc-select-all"
                      />
                    </th>
                  )}
                  <th>Document</th>
                  <th>Type</th>
                  <th>Status</th>
                  <th className="num">Pages</th>
                  <th className="num">Passages</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {lib.docs.map((d) => {
                  const err = plainError(d.error, d.error_code);
                  return (
                    <tr key={d.id} data-status={d.status} data-doc={d.id} className={selected.includes(d.id) ? "selected" : undefined}>
                      {canAsk && (
                        <td className="pick">
                          <input
                            type="checkbox"
                            checked={selected.includes(d.id)}
                            disabled={!askable(d)}
                            onChange={() => setSelected((s) => toggle(s, d.id))}
                            aria-label={`Select ${docTitle(d)}`}
                            title={askable(d) ? "Select to ask" : "Only documents that were read can be asked"}
                            data-testid="doc-select"
                          />
                        </td>
                      )}
                      <td className="doc-cell">
                        {editing === d.id ? (
                          <IdentityForm doc={d} onDone={() => (setEditing(0), lib.reload())} />
                        ) : (
                          <DocIdentity doc={d} onOpen={() => onOpen(d)} />
                        )}
                        {d.status !== "ok" && (err || statusLabel(d.status).help) && <div className="doc-error">{err || statusLabel(d.status).help}</div>}
                        {importing.running && importing.last && importing.last.file.split(/[\\/]/).pop() === d.file_name && importing.last.stage !== "done" && (
                          <div className="doc-progress">
                            <span>{importing.last.stage}…</span>
                          </div>
                        )}
                        {lib.indexing.running && lib.indexing.last?.doc_id === d.id && (
                          <div className="doc-progress" data-testid="doc-index-progress">
                            <span>
                              {stageText(lib.indexing.last.stage)} {lib.indexing.last.total ? `${lib.indexing.last.done}/${lib.indexing.last.total}` : ""} {etaText(lib.indexing.eta)}
                            </span>
                            <ProgressBar value={lib.indexing.last.total ? lib.indexing.last.done / lib.indexing.last.total : 0} label={`Indexing ${d.title}`} />
                          </div>
                        )}
                        {pwFor === d.id && (
                          <form
                            className="pw-form"
                            onSubmit={(e) => {
                              e.preventDefault();
                              if (password) retry(d, password);
                            }}
                          >
                            <input className="input" type="password" autoFocus placeholder="PDF password" value={password} onChange={(e) => setPassword(e.target.value)} aria-label={`Password for ${d.file_name}`} data-testid="password-input" />
                            <button className="btn btn-small btn-primary" type="submit" disabled={!password}>
                              Unlock
                            </button>
                            <button className="btn btn-small" type="button" onClick={() => setPwFor(0)}>
                              Cancel
                            </button>
                          </form>
                        )}
                        {d.status === "ok" && d.warnings && d.warnings.length > 0 && (
                          <div className="doc-warn">
                            {d.warnings.length === 1 ? plainError(d.warnings[0]) : `${d.warnings.length} warnings while reading; the text may be incomplete.`}
                          </div>
                        )}
                      </td>
                      <td>
                        <Chip tone="muted">{kindLabel(d.kind, d.file_name)}</Chip>
                      </td>
                      <td>
                        <StatusChip status={d.status} />
                      </td>
                      <td className="num tabular">{count(d.pages)}</td>
                      <td className="num tabular">{count(d.chunks)}</td>
                      <td className="row-actions">
                        {has("RetryDocument") && d.status === "needs_password" && (
                          <button className="icon-btn" title="Enter the password" aria-label={`Enter the password of ${d.file_name}`} onClick={() => setPwFor(d.id)}>
                            <Icon name="key" size={16} />
                          </button>
                        )}
                        {has("RetryDocument") && (d.status === "failed" || d.status === "pending") && (
                          <button className="icon-btn" title="Try reading it again" aria-label={`Retry ${d.file_name}`} onClick={() => retry(d)} disabled={importing.running}>
                            <Icon name="retry" size={16} />
                          </button>
                        )}
                        {canAsk && askable(d) && (
                          <button className="icon-btn icon-btn-safe" title="Ask this document" aria-label={`Ask ${docTitle(d)}`} data-testid="ask-doc" onClick={() => onAsk?.([d])}>
                            <Icon name="ask" size={16} />
                          </button>
                        )}
                        {canEdit && (
                          <button className="icon-btn icon-btn-safe" title="Rename" aria-label={`Rename ${docTitle(d)}`} data-testid="rename-doc" onClick={() => setEditing(editing === d.id ? 0 : d.id)}>
                            <Icon name="edit" size={16} />
                          </button>
                        )}
                        {has("ExportDocumentMarkdown") && d.status === "ok" && (
                          <button className="icon-btn icon-btn-safe" title="Export as Markdown" aria-label={`Export ${d.title || d.file_name} as Markdown`} data-testid="export-md" onClick={() => exportMarkdown(d)} disabled={exporting === d.id}>
                            <Icon name="export" size={16} />
                          </button>
                        )}
                        <button className="icon-btn" title={`Remove ${d.title || d.file_name}`} aria-label={`Remove ${d.title || d.file_name}`} onClick={() => setToRemove(d)}>
                          <Icon name="trash" size={16} />
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      )}

      {canPickFiles && lib.docs.length > 0 && (
        <p className="drop-hint">
          <Icon name="drop" size={15} /> Drop files or folders anywhere on this window to import them.
        </p>
      )}

      {toRemove && (
        <ConfirmDialog
          title="Remove this document?"
          confirm="Remove"
          danger
          busy={removing}
          onConfirm={confirmRemove}
          onCancel={() => setToRemove(null)}
        >
          <p>
            <strong>{toRemove.title || toRemove.file_name}</strong> and its {count(toRemove.chunks)} passages will be removed from this project.
          </p>
          <p className="subtle">The original file on your disk is not touched.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** "2 selected · Ask these 2 · Clear", or how to select when none is. */
function SelectionBar({ count: n, onAsk, onClear }: { count: number; onAsk: () => void; onClear: () => void }) {
  return (
    <div className={`selection-bar${n ? " active" : ""}`} data-testid="selection-bar">
      {n === 0 ? (
        <span className="subtle">Select documents to ask only them.</span>
      ) : (
        <>
          <span className="tabular" data-testid="selection-count">
            {docCount(n)} selected
          </span>
          <button className="btn btn-small btn-primary" onClick={onAsk} data-testid="ask-selected">
            <Icon name="ask" size={15} />
            Ask {n === 1 ? "this document" : `these ${n}`}
          </button>
          <button className="btn btn-small" onClick={onClear} data-testid="selection-clear">
            Clear
          </button>
        </>
      )}
    </div>
  );
}

/** A document's title (opens it), its organisation, kind and period, and
 * the file it was imported from. */
function DocIdentity({ doc: d, onOpen }: { doc: Document; onOpen: () => void }) {
  const line = identityLine(d);
  return (
    <>
      <button className="link doc-title" onClick={onOpen} title="Show the extracted text" data-testid="doc-title">
        {docTitle(d)}
      </button>
      {(line || d.identity_edited) && (
        <div className="doc-identity" data-testid="doc-identity">
          {line}
          {d.identity_edited && <span className="renamed" title="You named this document; Cairn leaves the title alone">{line ? " · " : ""}renamed</span>}
        </div>
      )}
      {d.title && d.file_name && d.title !== d.file_name && <div className="file-name">{d.file_name}</div>}
    </>
  );
}

/** Editing a document's title, organisation, kind and period in place;
 * "Use Cairn's title" gives them back to the library's choice. */
function IdentityForm({ doc: d, onDone }: { doc: Document; onDone: () => void }) {
  const [edit, setEdit] = useState<DocumentIdentity>({ title: docTitle(d), organisation: d.organisation ?? "", doc_type: d.doc_type ?? "", period: d.period ?? "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const title = useRef<HTMLInputElement>(null);
  useEffect(() => title.current?.select(), []);
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError("");
    try {
      await call();
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  const field = (key: keyof DocumentIdentity, label: string, placeholder: string) => (
    <label className="id-field">
      <span>{label}</span>
      <input className="input" value={edit[key]} placeholder={placeholder} onChange={(e) => setEdit({ ...edit, [key]: e.target.value })} data-testid={`identity-${key}`} />
    </label>
  );
  return (
    <form
      className="identity-form"
      data-testid="identity-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (edit.title.trim()) run(() => api.editDocumentIdentity(d.id, edit));
      }}
      onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), onDone())}
    >
      <label className="id-field id-title">
        <span>Title</span>
        <input ref={title} className="input" value={edit.title} onChange={(e) => setEdit({ ...edit, title: e.target.value })} aria-label={`Title of ${d.file_name}`} data-testid="identity-title" />
      </label>
      <div className="id-row">
        {field("organisation", "Organisation", "e.g. Acme Corp")}
        {field("doc_type", "Kind", "e.g. Annual report")}
        {field("period", "Period", "e.g. FY2023")}
      </div>
      {error && <div className="doc-error">{plainError(error)}</div>}
      <div className="form-actions">
        {d.identity_edited && has("ResetDocumentTitle") && (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => run(() => api.resetDocumentTitle(d.id))} data-testid="identity-reset" title="Give the title, organisation, kind and period back to Cairn's choice">
            Use Cairn's title
          </button>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-small" disabled={busy} onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={busy || !edit.title.trim()} data-testid="identity-save">
          Save
        </button>
      </div>
    </form>
  );
}
