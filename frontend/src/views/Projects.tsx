// Projects panel: the projects Cairn can open, with create, open, rename and
// delete (the user types the name to confirm). Opening one switches the
// whole app; the backend emits project:changed and every view reloads.
import { useCallback, useEffect, useRef, useState } from "react";
import { api, errorMessage, type ProjectList } from "../api";
import { Icon, Notice } from "../components/ui";
import { count, plainError } from "../lib/format";
import { projectNameError } from "../lib/settings";

export default function ProjectsPanel({ onClose }: { onClose: () => void }) {
  const [list, setList] = useState<ProjectList | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState("");
  const [newName, setNewName] = useState("");
  const [renaming, setRenaming] = useState<{ from: string; to: string } | null>(null);
  const [deleting, setDeleting] = useState<{ name: string; typed: string } | null>(null);
  const panel = useRef<HTMLDivElement>(null);

  const load = useCallback(() => api.listProjects().then(setList, (e) => setError(errorMessage(e))), []);
  useEffect(() => {
    load();
  }, [load]);
  useEffect(() => {
    panel.current?.querySelector<HTMLInputElement>("input")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      if (deleting) setDeleting(null);
      else if (renaming) setRenaming(null);
      else onClose();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onClose, deleting, renaming]);

  const run = async (label: string, fn: () => Promise<unknown>, close = false) => {
    setBusy(label);
    setError("");
    try {
      await fn();
      if (close) onClose();
      else await load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy("");
    }
  };

  const nameErr = newName ? projectNameError(newName) : "";
  const managed = list?.managed ?? false;

  return (
    <div className="scrim" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog projects-panel" role="dialog" aria-modal="true" aria-labelledby="projects-title" data-testid="projects" ref={panel}>
        <div className="settings-head">
          <h2 id="projects-title">Projects</h2>
          <button className="icon-btn" onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        <p className="subtle">
          {managed ? (
            <>
              Each project is its own library, graph and history, in <span className="mono">{list?.root}</span>.
            </>
          ) : (
            "Cairn was started on one project folder; only that project is available here."
          )}
        </p>
        {error && (
          <Notice tone="bad" onClose={() => setError("")}>
            {plainError(error)}
          </Notice>
        )}
        <ul className="project-list" data-testid="project-list">
          {(list?.projects ?? []).map((p) => (
            <li key={p.dir} className={p.open ? "open" : ""} data-project={p.name} data-open={p.open ? "1" : "0"}>
              {renaming?.from === p.name ? (
                <form
                  className="rename-form"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (!projectNameError(renaming.to)) run("rename", () => api.renameProject(renaming.from, renaming.to).then(() => setRenaming(null)));
                  }}
                >
                  <input className="input" autoFocus value={renaming.to} onChange={(e) => setRenaming({ ...renaming, to: e.target.value })} aria-label={`New name for ${p.name}`} data-testid="rename-input" />
                  <button className="btn btn-small btn-primary" type="submit" disabled={!!projectNameError(renaming.to) || renaming.to === p.name || !!busy} data-testid="rename-submit">
                    Rename
                  </button>
                  <button className="btn btn-small" type="button" onClick={() => setRenaming(null)}>
                    Cancel
                  </button>
                  {projectNameError(renaming.to) && <div className="field-error">{projectNameError(renaming.to)}</div>}
                </form>
              ) : (
                <>
                  <div className="project-main">
                    <div className="project-row-name">
                      <Icon name="folder" size={16} /> {p.name}
                      {p.open && <span className="open-tag">open</span>}
                    </div>
                    <div className="subtle small">
                      {count(p.documents)} {p.documents === 1 ? "document" : "documents"}
                      {p.modified ? ` · changed ${new Date(p.modified).toLocaleDateString()}` : ""}
                      {p.error ? ` · ${plainError(p.error)}` : ""}
                    </div>
                  </div>
                  <div className="row-actions">
                    {!p.open && (
                      <button className="btn btn-small btn-primary" disabled={!!busy} onClick={() => run("open", () => api.openProject(p.name), true)} data-testid="project-open">
                        Open
                      </button>
                    )}
                    {managed && (
                      <button className="icon-btn" title={`Rename ${p.name}`} aria-label={`Rename ${p.name}`} disabled={!!busy} onClick={() => setRenaming({ from: p.name, to: p.name })} data-testid="project-rename">
                        <Icon name="edit" size={15} />
                      </button>
                    )}
                    {managed && (
                      <button
                        className="icon-btn"
                        title={p.open ? "Open another project to delete this one" : `Delete ${p.name}`}
                        aria-label={`Delete ${p.name}`}
                        disabled={!!busy || p.open}
                        onClick={() => setDeleting({ name: p.name, typed: "" })}
                        data-testid="project-delete"
                      >
                        <Icon name="trash" size={15} />
                      </button>
                    )}
                  </div>
                </>
              )}
              {deleting?.name === p.name && (
                <form
                  className="delete-confirm"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (deleting.typed === p.name) run("delete", () => api.deleteProject(p.name).then(() => setDeleting(null)));
                  }}
                >
                  <p>
                    Delete <strong>{p.name}</strong> with its {count(p.documents)} documents, graph, mind maps and answers? This cannot be undone. The original files on your disk are not touched.
                  </p>
                  <label>
                    Type <strong className="mono">{p.name}</strong> to confirm
                    <input className="input" autoFocus value={deleting.typed} onChange={(e) => setDeleting({ ...deleting, typed: e.target.value })} data-testid="delete-confirm-input" />
                  </label>
                  <div className="form-actions">
                    <button type="button" className="btn" onClick={() => setDeleting(null)}>
                      Cancel
                    </button>
                    <button type="submit" className="btn btn-danger" disabled={deleting.typed !== p.name || !!busy} data-testid="delete-confirm">
                      Delete project
                    </button>
                  </div>
                </form>
              )}
            </li>
          ))}
        </ul>
        {managed && (
          <form
            className="create-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (newName && !nameErr) run("create", () => api.createProject(newName).then(() => api.openProject(newName)).then(() => setNewName("")), true);
            }}
          >
            <input className="input" value={newName} onChange={(e) => setNewName(e.target.value)} placeholder="New project name" aria-label="New project name" data-testid="project-new-name" />
            <button className="btn btn-primary" type="submit" disabled={!newName || !!nameErr || !!busy} data-testid="project-create">
              Create and open
            </button>
            {nameErr && <div className="field-error">{nameErr}</div>}
          </form>
        )}
      </div>
    </div>
  );
}
