// Screenshot of the Graph view of a running `cairn serve` (the Graph view
// at library scale, issue 28): opens the page, goes to the Graph view,
// waits for the layout to settle, writes the PNG and prints what was drawn
// (nodes, edges, labels shown, the overview's round trip in ms).
//
//   node frontend/e2e/graph-shot.mjs URL OUT.png [--search NAME] [--chromium /usr/bin/chromium]
import { chromium } from "playwright-core";

const [url, out] = process.argv.slice(2);
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
if (!url || !out) {
  console.error("usage: graph-shot.mjs URL OUT.png [--search NAME]");
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: arg("--chromium", process.env.CHROMIUM ?? "/usr/bin/chromium"), headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url);
const t0 = Date.now();
await page.getByTestId("nav-graph").click();
await page.waitForFunction(() => window.__cairnGraph?.nodes > 0, null, { timeout: 60_000 });
const shown = Date.now() - t0;
await page.waitForFunction(() => !document.querySelector('[data-testid="graph-counts"]')?.textContent?.includes("arranging"), null, { timeout: 60_000 });
const search = arg("--search", "");
if (search) {
  await page.getByTestId("graph-search").fill(search);
  await page.getByTestId("graph-hits").locator("button").first().click();
  await page.waitForTimeout(2500);
}
await page.screenshot({ path: out });
const r = await page.evaluate(() => {
  const g = window.__cairnGraph;
  return { nodes: g.nodes, edges: g.edges, labels: g.sigma.getNodeDisplayedLabels().size, openMs: g.openMs, counts: document.querySelector('[data-testid="graph-counts"]')?.textContent };
});
console.log(JSON.stringify({ ...r, clickToDrawnMs: shown }));
await browser.close();
