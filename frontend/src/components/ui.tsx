import { useEffect, useRef, type ReactNode } from "react";
import { statusLabel, type Tone } from "../lib/format";
import type { Segment } from "../lib/highlight";

const paths: Record<string, ReactNode> = {
  library: (
    <>
      <path d="M4.5 4.5h3.5v15H4.5zM10 4.5h3.5v15H10z" />
      <path d="m15.6 5.4 3.3-.9 3.4 14.2-3.3.9z" />
    </>
  ),
  search: (
    <>
      <circle cx="10.5" cy="10.5" r="6" />
      <path d="m15 15 5 5" />
    </>
  ),
  import: (
    <>
      <path d="M12 4v11M7.5 10.5 12 15l4.5-4.5" />
      <path d="M4.5 15.5v3h15v-3" />
    </>
  ),
  trash: (
    <>
      <path d="M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12" />
    </>
  ),
  back: <path d="M14.5 6 8.5 12l6 6" />,
  ask: (
    <>
      <path d="M5 5.5h14v10H10l-4 3.5v-3.5H5z" />
      <path d="M9.5 9.2a2.5 2.5 0 1 1 3.2 2.4c-.5.2-.7.5-.7 1" />
      <circle cx="12" cy="14" r=".4" />
    </>
  ),
  mindmap: (
    <>
      <rect x="3.5" y="10" width="5" height="4" rx="1.2" />
      <path d="M8.5 12h2.5M11 6.5v11M11 6.5h3M11 12h3M11 17.5h3" />
      <rect x="14" y="4.5" width="6.5" height="4" rx="1.2" />
      <rect x="14" y="10" width="6.5" height="4" rx="1.2" />
      <rect x="14" y="15.5" width="6.5" height="4" rx="1.2" />
    </>
  ),
  graph: (
    <>
      <circle cx="6" cy="7" r="2.2" />
      <circle cx="17.5" cy="6" r="2.2" />
      <circle cx="12" cy="17" r="2.2" />
      <path d="M8.1 7.6 15.3 6.4M7.1 9 10.9 15M16.6 8 13 15" />
    </>
  ),
  retry: (
    <>
      <path d="M5 12a7 7 0 1 0 2.1-5" />
      <path d="M5 4.5V8h3.5" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="14" r="3.5" />
      <path d="m10.5 11.5 8-8M16 6l2.5 2.5M14 8l2 2" />
    </>
  ),
  folder: <path d="M3.5 6.5h6l2 2h9v10h-17z" />,
  edit: (
    <>
      <path d="M4.5 19.5 5.3 16 15.8 5.5l2.7 2.7L8 18.7z" />
      <path d="m13.8 7.5 2.7 2.7" />
    </>
  ),
  settings: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 3.5v2.2M12 18.3v2.2M3.5 12h2.2M18.3 12h2.2M6 6l1.6 1.6M16.4 16.4 18 18M6 18l1.6-1.6M16.4 7.6 18 6" />
    </>
  ),
  file: (
    <>
      <path d="M7 3.5h7l4 4v13H7z" />
      <path d="M14 3.5v4h4" />
    </>
  ),
  export: (
    <>
      <path d="M14 4.5h5.5V10M19.5 4.5 11.5 12.5" />
      <path d="M17.5 13.5v6h-13v-13h6" />
    </>
  ),
  drop: (
    <>
      <path d="M12 3.5v10M8 9.5l4 4 4-4" />
      <rect x="4" y="15" width="16" height="5.5" rx="1.5" />
    </>
  ),
};

export function Icon({ name, size = 18 }: { name: keyof typeof paths | string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {paths[name]}
    </svg>
  );
}

/** The stacked-stones mark (the app icon without its tile). */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <rect x="0" y="0" width="64" height="64" rx="14" fill="#24414A" />
      <path d="M14.5 47.5c-.5-4.4 5.9-7 17.5-7s18 2.5 17.5 7c-.4 3.8-6.4 5.5-17.5 5.5s-17.1-1.6-17.5-5.5z" fill="#C9C0B0" />
      <path d="M18.7 36.6c-.2-3.6 5.8-5.7 13.8-5.7s13.4 2 13 5.6c-.3 3.1-5.3 4.7-13.3 4.7s-13.3-1.5-13.5-4.6z" fill="#DCD5C8" />
      <path d="M22.7 27.2c-.1-2.9 4.3-4.6 9.4-4.6 5.6 0 9.4 1.6 9.1 4.4-.2 2.6-3.9 4-9.2 4s-9.2-1.3-9.3-3.8z" fill="#E9E4DA" />
      <path d="M26.7 19.1c0-2.4 2.4-3.9 5.4-3.9 3.3 0 5.4 1.4 5.3 3.6-.1 2.3-2.3 3.7-5.4 3.7s-5.3-1.3-5.3-3.4z" fill="#F5F1E9" />
    </svg>
  );
}

export function Chip({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`chip chip-${tone}`} title={title}>
      <span className="chip-dot" />
      {children}
    </span>
  );
}

export function StatusChip({ status }: { status: string }) {
  const s = statusLabel(status);
  return (
    <Chip tone={s.tone} title={s.help}>
      {s.label}
    </Chip>
  );
}

export function ProgressBar({ value, label }: { value: number; label?: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
      <div className="progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}

export function Marked({ segments, className = "term" }: { segments: Segment[]; className?: string }) {
  return (
    <>
      {segments.map((s, i) =>
        s.hit ? (
          <mark key={i} className={className}>
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && props.onCancel();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [props.onCancel]);
  return (
    <div className="scrim" onMouseDown={(e) => e.target === e.currentTarget && props.onCancel()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title">
        <h2 id="dialog-title">{props.title}</h2>
        <div className="dialog-body">{props.children}</div>
        <div className="dialog-actions">
          <button ref={cancelRef} className="btn" onClick={props.onCancel} disabled={props.busy}>
            Cancel
          </button>
          <button className={props.danger ? "btn btn-danger" : "btn btn-primary"} onClick={props.onConfirm} disabled={props.busy}>
            {props.confirm}
          </button>
        </div>
      </div>
    </div>
  );
}

export function Notice({ tone, children, onClose }: { tone: "info" | "ok" | "warn" | "bad"; children: ReactNode; onClose?: () => void }) {
  return (
    <div className={`notice notice-${tone}`} role={tone === "bad" ? "alert" : "status"}>
      <div className="notice-body">{children}</div>
      {onClose && (
        <button className="notice-close" onClick={onClose} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
