import { describe, expect, it, vi } from "vitest";
import { installServeTransport, makeCaller, makeEvents, TOKEN_HEADER } from "./http";
import { errorCode, errorMessage } from "./index";

function reply(status: number, body: unknown): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
}

describe("makeCaller", () => {
  it("posts the arguments array with the token and returns the result", async () => {
    const f = vi.fn(async () => reply(200, { result: [{ id: 1 }] }));
    const call = makeCaller({ token: "T", methods: [] }, f as unknown as typeof fetch);
    await expect(call("Search", ["tax", 5])).resolves.toEqual([{ id: 1 }]);
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/App.Search");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body as string)).toEqual(["tax", 5]);
    expect((init.headers as Record<string, string>)[TOKEN_HEADER]).toBe("T");
  });
  it("rejects with the Go error's message and code, like the desktop bindings", async () => {
    const call = makeCaller({ token: "T", methods: [] }, (async () => reply(200, { result: null, error: "not implemented yet" })) as unknown as typeof fetch);
    await expect(call("Search", [])).rejects.toEqual({ message: "not implemented yet", code: "" });
    const coded = makeCaller({ token: "T", methods: [] }, (async () => reply(200, { result: null, error: "no project is open", code: "no_project" })) as unknown as typeof fetch);
    const e = await coded("Ask", []).catch((x: unknown) => x);
    expect(errorCode(e)).toBe("no_project");
    expect(errorMessage(e)).toBe("no project is open");
  });
  it("rejects with the server's text on HTTP errors", async () => {
    const call = makeCaller({ token: "T", methods: [] }, (async () => reply(401, "needs the token\n")) as unknown as typeof fetch);
    await expect(call("Mode", [])).rejects.toBe("needs the token");
  });
  it("says so when the server is gone", async () => {
    const call = makeCaller({ token: "T", methods: [] }, (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch);
    await expect(call("Mode", [])).rejects.toMatch(/not reachable/);
  });
});

describe("makeEvents", () => {
  it("delivers to listeners, honours max and unsubscribe", () => {
    const ev = makeEvents();
    const all: unknown[] = [];
    const once: unknown[] = [];
    const off = ev.EventsOnMultiple("x", (d) => all.push(d), -1);
    ev.EventsOnMultiple("x", (d) => once.push(d), 1);
    ev.EventsEmit("x", 1);
    ev.EventsEmit("x", 2);
    off();
    ev.EventsEmit("x", 3);
    expect(all).toEqual([1, 2]);
    expect(once).toEqual([1]);
  });
});

describe("installServeTransport", () => {
  it("defines window.go.app.App and routes SSE messages to EventsOn listeners", async () => {
    class FakeES {
      static last: FakeES;
      url: string;
      onmessage: ((e: MessageEvent) => void) | null = null;
      constructor(url: string) {
        this.url = url;
        FakeES.last = this;
      }
      close() {}
    }
    const win = { document: { title: "" }, open: vi.fn() } as unknown as Window & Record<string, any>;
    const f = vi.fn(async () => reply(200, { result: "offline" }));
    installServeTransport(win, { token: "a b", methods: ["Mode"] }, {
      fetch: f as unknown as typeof fetch,
      EventSource: FakeES as unknown as typeof EventSource,
    });
    await expect(win.go.app.App.Mode()).resolves.toBe("offline");
    expect(FakeES.last.url).toBe("/api/events?token=a%20b");

    const got: unknown[] = [];
    win.runtime.EventsOnMultiple("import:progress", (d: unknown) => got.push(d), -1);
    FakeES.last.onmessage!({ data: JSON.stringify({ name: "import:progress", data: { index: 1 } }) } as MessageEvent);
    FakeES.last.onmessage!({ data: "not json" } as MessageEvent);
    expect(got).toEqual([{ index: 1 }]);
    // Unknown runtime functions are harmless no-ops.
    expect(() => win.runtime.WindowMaximise()).not.toThrow();
  });
});
