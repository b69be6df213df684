// HTTP + server-sent-events transport for serve mode. `cairn serve` injects
// window.__CAIRN_SERVE__ = {token, methods}; installServeTransport then
// defines window.go.app.App.<Method> and window.runtime.Events* on top of
// fetch and EventSource, so the Wails-generated bindings in wailsjs/ work in
// a plain browser exactly as they do in the desktop window.

export interface ServeConfig {
  token: string;
  methods: string[];
}

type Callback = (...data: unknown[]) => void;
interface Listener {
  cb: Callback;
  left: number; // calls left; -1 = unlimited
}

export interface ServeDeps {
  fetch: typeof fetch;
  EventSource?: typeof EventSource;
}

export const TOKEN_HEADER = "X-Cairn-Token";

/** Makes the call function: POST /api/App.<method> with the arguments array. */
export function makeCaller(cfg: ServeConfig, doFetch: typeof fetch) {
  return async function call(method: string, args: unknown[]): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(`/api/App.${method}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", [TOKEN_HEADER]: cfg.token },
        body: JSON.stringify(args),
        credentials: "same-origin",
      });
    } catch {
      throw "Cairn is not reachable. Is `cairn serve` still running?";
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => "")).trim();
      throw text || `request failed (HTTP ${res.status})`;
    }
    const body = (await res.json()) as { result?: unknown; error?: string; code?: string };
    // Like the desktop bindings (Wails' ErrorFormatter, app/errors.go), a Go
    // error rejects with {message, code}.
    if (body.error) throw { message: body.error, code: body.code ?? "" };
    return body.result ?? null;
  };
}

/** A minimal event hub with the Wails runtime's Events* semantics. */
export function makeEvents() {
  const listeners = new Map<string, Listener[]>();
  return {
    EventsOnMultiple(name: string, cb: Callback, max: number): () => void {
      const l: Listener = { cb, left: max === 0 ? -1 : max };
      listeners.set(name, [...(listeners.get(name) ?? []), l]);
      return () => listeners.set(name, (listeners.get(name) ?? []).filter((x) => x !== l));
    },
    EventsOff(name: string, ...more: string[]) {
      for (const n of [name, ...more]) listeners.delete(n);
    },
    EventsOffAll() {
      listeners.clear();
    },
    EventsEmit(name: string, ...data: unknown[]) {
      const ls = listeners.get(name) ?? [];
      for (const l of ls) {
        l.cb(...data);
        if (l.left > 0) l.left--;
      }
      listeners.set(name, ls.filter((l) => l.left !== 0));
    },
  };
}

/** Installs window.go.app.App and window.runtime for serve mode. */
export function installServeTransport(win: Window & Record<string, any>, cfg: ServeConfig, deps: ServeDeps): { close(): void } {
  const call = makeCaller(cfg, deps.fetch);
  const App: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const m of cfg.methods) App[m] = (...args: unknown[]) => call(m, args);
  win.go = win.go ?? {};
  win.go.app = win.go.app ?? {};
  win.go.app.App = App;

  const events = makeEvents();
  const noop = () => {};
  const runtime: Record<string, unknown> = {
    ...events,
    LogPrint: noop, LogTrace: noop, LogDebug: noop, LogInfo: noop, LogWarning: noop, LogError: noop, LogFatal: noop,
    OnFileDrop: noop,
    OnFileDropOff: noop,
    BrowserOpenURL: (url: string) => win.open(url, "_blank", "noopener"),
    WindowSetTitle: (title: string) => {
      win.document.title = title;
    },
    Environment: async () => ({ buildType: "serve", platform: "browser", arch: "" }),
  };
  // Anything else the Wails runtime has (window sizing, …) is a no-op here.
  win.runtime = new Proxy(runtime, { get: (t, k: string) => (k in t ? t[k] : noop) });

  let source: EventSource | undefined;
  if (deps.EventSource) {
    source = new deps.EventSource(`/api/events?token=${encodeURIComponent(cfg.token)}`);
    source.onmessage = (e: MessageEvent) => {
      try {
        const msg = JSON.parse(e.data) as { name: string; data: unknown };
        events.EventsEmit(msg.name, msg.data);
      } catch {
        /* ignore malformed events */
      }
    };
  }
  return { close: () => source?.close() };
}
