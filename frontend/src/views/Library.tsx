import { useEffect, useState } from "react";
import { api, canPickFiles, errorMessage, has, type Document, type ImportDone } from "../api";
import { etaText, stageText } from "../lib/eta";
import { Chip, ConfirmDialog, Icon, Notice, ProgressBar, StatusChip } from "../components/ui";
import { count, fileName, importFraction, kindLabel, plainError, progressText, statusLabel } from "../lib/format";
import type { Library } from "../library";
import { saveText } from "../lib/save";

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

export default function LibraryView({ lib, onOpen }: { lib: Library; onOpen: (doc: Document) => void }) {
  const [pathsText, setPathsText] = useState("");
  const [showPaths, setShowPaths] = useState(false);
  const [callError, setCallError] = useState("");
  const [toRemove, setToRemove] = useState<Document | null>(null);
  const [removing, setRemoving] = useState(false);
  const [pwFor, setPwFor] = useState(0);
  const [password, setPassword] = useState("");
  const [saved, setSaved] = useState("");
  const [exporting, setExporting] = useState(0);

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
              {lib.indexing.last?.total ? `${lib.indexing.last.done} of ${lib.indexing.last.total}` : "starting…"}
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
            <table className="docs" data-testid="documents">
              <thead>
                <tr>
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
                    <tr key={d.id} data-status={d.status}>
                      <td className="doc-cell">
                        <button className="link doc-title" onClick={() => onOpen(d)} title="Show the extracted text">
                          {d.title || d.file_name}
                        </button>
                        {d.title && d.file_name && d.title !== d.file_name && <div className="file-name">{d.file_name}</div>}
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
