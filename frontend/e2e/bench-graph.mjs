// Frame time of the knowledge-graph explorer on a generated graph (10,000
// nodes by default), in headless Chromium. Serves frontend/dist itself (the
// page's "#bench-graph=N" hook draws a generated graph without a backend), so
// it needs only a built frontend, playwright-core and a Chromium.
//
//   node frontend/e2e/bench-graph.mjs [--nodes 10000] [--seconds 4] [--runs 3] [--chromium /usr/bin/chromium]
//
// Two camera motions, each for --seconds, --runs times:
//   drag:   the user drags the view (mouse down, one move per frame): sigma
//           hides edges and labels while the camera moves (the explorer's
//           large-graph settings);
//   redraw: the camera is moved without the mouse, so every frame draws all
//           nodes, edges and labels (the worst case; also what a still frame
//           after a filter change costs).
// For each: sigma's render per frame on the main thread (beforeRender →
// afterRender, ms: median, p95) and the whole frame (interval between
// animation frames, ms: median, p95). Headless Chromium without a GPU runs
// WebGL on SwiftShader, a CPU rasteriser, so the whole-frame figure measures
// that rasteriser; the page reports the WebGL renderer it got.
// Prints one JSON object.
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(" ")
    .split(/\s*--/)
    .filter(Boolean)
    .map((a) => a.split(/\s+/)),
);
const nodes = Number(args.nodes ?? 10000);
const seconds = Number(args.seconds ?? 4);
const runs = Number(args.runs ?? 3);
const exe = args.chromium ?? process.env.CHROMIUM ?? "/usr/bin/chromium";
const dist = args.dist ?? join(here, "..", "dist");
if (!existsSync(join(dist, "index.html"))) {
  console.error(`bench-graph: no ${dist}/index.html: run 'make frontend' first`);
  process.exit(2);
}

const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".woff2": "font/woff2" };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  let file = join(dist, path);
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, "index.html");
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/#bench-graph=${nodes}`;

const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"] });
const out = { nodes, seconds, runs, chromium: browser.version(), viewport: "1280x860", drag: [], redraw: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction((n) => window.__cairnGraph?.nodes === n, nodes, { timeout: 120_000 });
  out.build_ms = Date.now() - t0;
  // The force layout runs in a worker for min(6 s, 1.5 s + n/4 ms); measure after it.
  await page.waitForFunction(() => !document.querySelector('[data-testid="graph-counts"]')?.textContent?.includes("arranging"), null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  Object.assign(
    out,
    await page.evaluate(() => {
      const g = window.__cairnGraph;
      const gl = document.createElement("canvas").getContext("webgl2");
      const ext = gl?.getExtension("WEBGL_debug_renderer_info");
      return { edges: g.edges, webgl: ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : "unknown", device_pixel_ratio: window.devicePixelRatio };
    }),
  );
  const box = await page.getByTestId("graph-canvas").boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;

  // Per-frame timing, installed once: sigma's render span and rAF intervals.
  await page.evaluate(() => {
    const s = window.__cairnGraph.sigma;
    const w = window;
    w.__frames = { renders: [], frames: [], on: false, start: 0 };
    s.on("beforeRender", () => (w.__frames.start = performance.now()));
    s.on("afterRender", () => w.__frames.on && w.__frames.renders.push(performance.now() - w.__frames.start));
    let last = 0;
    const tick = (now) => {
      if (w.__frames.on && last) w.__frames.frames.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const collect = () =>
    page.evaluate(() => {
      const f = window.__frames;
      f.on = false;
      const r = { renders: f.renders, frames: f.frames };
      f.renders = [];
      f.frames = [];
      return r;
    });
  const begin = () => page.evaluate(() => (window.__frames.on = true));

  for (let run = 0; run < runs; run++) {
    // drag: mouse events as a drag sends them (button down on sigma's mouse
    // layer, one move per animation frame, in a circle, then up), dispatched
    // in the page so the driver's round trips do not pace the frames.
    await begin();
    await page.evaluate(
      ({ ms, cx, cy }) =>
        new Promise((resolve) => {
          const layer = window.__cairnGraph.sigma.getMouseCaptor().container;
          const ev = (type, x, y) => new MouseEvent(type, { clientX: x, clientY: y, button: 0, buttons: type === "mouseup" ? 0 : 1, bubbles: true, cancelable: true });
          layer.dispatchEvent(ev("mousedown", cx, cy));
          const t0 = performance.now();
          let i = 0;
          const step = (now) => {
            i++;
            document.dispatchEvent(ev("mousemove", cx + 150 * Math.sin(i / 10), cy + 100 * Math.cos(i / 10)));
            if (now - t0 < ms) requestAnimationFrame(step);
            else {
              document.dispatchEvent(ev("mouseup", cx, cy));
              resolve();
            }
          };
          requestAnimationFrame(step);
        }),
      { ms: seconds * 1000, cx, cy },
    );
    out.drag.push(await collect());
    await page.waitForTimeout(600); // the drag's inertia animation

    // redraw: the camera moves without the mouse: everything is drawn.
    await begin();
    await page.evaluate(
      (ms) =>
        new Promise((resolve) => {
          const cam = window.__cairnGraph.sigma.getCamera();
          const t0 = performance.now();
          const step = (now) => {
            const k = (now - t0) / 1000;
            cam.setState({ x: 0.5 + 0.2 * Math.sin(k * 2), y: 0.5 + 0.2 * Math.cos(k * 2), ratio: 0.6 + 0.4 * Math.sin(k) ** 2 });
            if (now - t0 < ms) requestAnimationFrame(step);
            else resolve();
          };
          requestAnimationFrame(step);
        }),
      seconds * 1000,
    );
    out.redraw.push(await collect());
  }
  // A full refresh: reducers over every node and edge, GPU buffers rebuilt,
  // then drawn (what a filter change, a search or a layout step costs the
  // main thread).
  out.refresh_ms = await page.evaluate(() => {
    const s = window.__cairnGraph.sigma;
    const t = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      s.refresh();
      t.push(performance.now() - t0);
    }
    return t;
  });
  out.page_errors = errors;
} finally {
  await browser.close();
  server.close();
}

const pct = (xs, p) => {
  if (!xs.length) return 0;
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length, Math.max(1, Math.ceil((p / 100) * v.length))) - 1];
};
for (const k of ["drag", "redraw"]) {
  out[k] = out[k].map((r) => ({
    frames: r.frames.length,
    renders: r.renders.length,
    render_ms_median: pct(r.renders, 50),
    render_ms_p95: pct(r.renders, 95),
    frame_ms_median: pct(r.frames, 50),
    frame_ms_p95: pct(r.frames, 95),
  }));
}
console.log(JSON.stringify(out, null, 1));
