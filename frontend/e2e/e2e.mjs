// Browser end-to-end test of Cairn's serve mode (see run.sh).
// node e2e.mjs URL OUT_DIR FILE_EN.pdf FILE_ZH.docx
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [url, outDir, pdf, docx] = process.argv.slice(2);
if (!url || !outDir || !pdf || !docx) {
  console.error("usage: node e2e.mjs URL OUT_DIR FILE.pdf FILE.docx");
  process.exit(2);
}
const origin = new URL(url).origin;
const IMPORT_TIMEOUT = Number(process.env.E2E_IMPORT_TIMEOUT_MS ?? 240_000);

const results = [];
let stop = false;
async function check(name, fn) {
  if (stop) {
    results.push({ name, ok: false, why: "not run: an earlier step failed" });
    console.log(`SKIP ${name}`);
    return;
  }
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`PASS ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    results.push({ name, ok: false, why: String(e?.message ?? e).split("\n")[0] });
    console.log(`FAIL ${name}: ${String(e?.message ?? e)}`);
  }
}
function must(cond, msg) {
  if (!cond) throw new Error(msg);
}
/** A step whose failure makes the following ones meaningless. */
async function gate(name, fn) {
  await check(name, fn);
  if (!results[results.length - 1].ok) stop = true;
}

const profile = mkdtempSync(join(tmpdir(), "cairn-chromium-"));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 860 },
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(String(e)));
page.on("console", (m) => m.type() === "error" && !/favicon/.test(m.text()) && pageErrors.push(m.text()));

try {
  await check("API refuses requests without the token", async () => {
    const r1 = await fetch(`${origin}/api/App.Mode`, { method: "POST", body: "[]", headers: { "Content-Type": "application/json" } });
    must(r1.status === 401 || r1.status === 403, `POST without token: HTTP ${r1.status}`);
    const r2 = await fetch(`${origin}/api/App.Mode`, { method: "POST", body: "[]", headers: { "X-Cairn-Token": "wrong" } });
    must(r2.status === 401 || r2.status === 403, `POST with a wrong token: HTTP ${r2.status}`);
    const r3 = await fetch(`${origin}/`);
    must(r3.status === 401 || r3.status === 403, `page without token: HTTP ${r3.status}`);
    const r4 = await fetch(`${origin}/api/events`);
    must(r4.status === 401 || r4.status === 403, `events without token: HTTP ${r4.status}`);
  });

  await gate("page loads with the Library and the Offline badge", async () => {
    await page.goto(url);
    await page.getByRole("heading", { level: 1 }).waitFor({ timeout: 15_000 });
    const badge = await page.getByTestId("mode-badge").innerText();
    must(/offline/i.test(badge), `mode badge says ${JSON.stringify(badge)}`);
    await page.getByText("No documents yet").waitFor({ timeout: 10_000 });
  });

  await gate("imports two real files through the UI", async () => {
    await page.getByTestId("import-button").click();
    await page.getByLabel(/Files or folders/).fill(`${pdf}\n${docx}`);
    await page.getByTestId("import-submit").click();
    const rows = page.locator('[data-testid="documents"] tbody tr');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="documents"] tbody tr').length >= 2, null, {
      timeout: IMPORT_TIMEOUT,
    });
    // Wait for the import to finish (progress card gone).
    await page.getByTestId("import-progress").waitFor({ state: "detached", timeout: IMPORT_TIMEOUT });
    must((await rows.count()) === 2, `library lists ${await rows.count()} documents`);
  });

  await check("both documents are listed with status ok", async () => {
    const rows = page.locator('[data-testid="documents"] tbody tr');
    const statuses = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-status")));
    must(statuses.every((s) => s === "ok"), `statuses ${JSON.stringify(statuses)}`);
    const text = await page.getByTestId("documents").innerText();
    must(/Ready/.test(text), "status chips say Ready");
    await page.screenshot({ path: join(outDir, "library.png") });
  });

  await gate("search finds a passage in the PDF", async () => {
    await page.getByRole("button", { name: /Search/ }).first().click();
    await page.getByTestId("search-input").fill("copyright infringement liability");
    await page.getByTestId("search-input").press("Enter");
    await page.locator('[data-testid="results"] li').first().waitFor({ timeout: 30_000 });
    const n = await page.locator('[data-testid="results"] li').count();
    must(n > 0, "no results");
    const first = await page.locator('[data-testid="results"] li').first().innerText();
    must(/p\. \d+|pp\. \d+/.test(first), `first result has no page span: ${first.slice(0, 120)}`);
    must((await page.locator("mark.term").count()) > 0, "no highlighted terms");
    await page.screenshot({ path: join(outDir, "search.png") });
  });

  await check("opening a result shows the source text with the passage marked", async () => {
    await page.locator('[data-testid="results"] li button').first().click();
    await page.locator("mark.passage").first().waitFor({ timeout: 15_000 });
    const marked = await page.locator("mark.passage").first().innerText();
    must(marked.trim().length > 20, `marked passage too short: ${JSON.stringify(marked)}`);
    must(await page.locator("mark.passage").first().isVisible(), "passage not scrolled into view");
    await page.screenshot({ path: join(outDir, "source.png") });
    await page.getByRole("button", { name: /Back to results/ }).click();
    await page.locator('[data-testid="results"] li').first().waitFor({ timeout: 5_000 });
  });

  await check("search finds the Chinese document", async () => {
    await page.getByTestId("search-input").fill("民事主体");
    await page.getByTestId("search-input").press("Enter");
    await page.waitForFunction(
      () => /民事/.test(document.querySelector('[data-testid="results"]')?.textContent ?? ""),
      null,
      { timeout: 30_000 },
    );
  });

  await check("no errors in the page", async () => {
    must(pageErrors.length === 0, pageErrors.slice(0, 3).join(" | "));
  });
} finally {
  await page.screenshot({ path: join(outDir, "final.png") }).catch(() => {});
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
for (const r of results.filter((r) => !r.ok)) console.log(`  failed: ${r.name}: ${r.why}`);
console.log(`screenshots: ${outDir}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
