// An independent MCP client against `cairn mcp`: the official TypeScript
// SDK (@modelcontextprotocol/sdk) spawns the server over stdio, negotiates,
// lists the tools and calls search, ask and get_passage, checking each
// passage's page and span against the document text resource; then bad
// input (unknown tool, wrong types, huge k, paths outside the project) must
// give clear errors while the server stays up. It also times start-up to
// ready (spawn → initialize answered) over several launches.
//
// Usage: node mcp.mjs CAIRN_BIN PROJECT_DIR OUT_DIR   (prints "N passed, N failed")
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [bin, project, out] = process.argv.slice(2);
if (!bin || !project || !out) {
  console.error("usage: node mcp.mjs CAIRN_BIN PROJECT_DIR OUT_DIR");
  process.exit(2);
}

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   mcp: ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL mcp: ${name}: ${e?.stack ?? e}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

// start launches `cairn mcp` and connects; returns the client, the
// transport and the milliseconds from spawn to the initialize reply.
async function start(extra = []) {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "--offline", "--project", project, ...extra],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "cairn-e2e", version: "1.0.0" });
  const t0 = performance.now();
  await client.connect(transport);
  const readyMs = performance.now() - t0;
  return { client, transport, readyMs, stderr: () => stderr };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// The document text resource as UTF-8 bytes per page: spans are byte
// offsets into the pages joined by form feeds.
const docTexts = new Map();
async function docBytes(client, docId) {
  if (!docTexts.has(docId)) {
    const r = await client.readResource({ uri: `cairn://documents/${docId}/text` });
    const md = r.contents[0].text;
    // "## Page N (char OFFSET...)\n\nTEXT\n" blocks; rebuild the joined text.
    const pages = [...md.matchAll(/^## Page (\d+)[^\n]*\(char (\d+)[^\n]*\n\n/gm)];
    const parts = pages.map((m, i) => {
      const start = m.index + m[0].length;
      const end = i + 1 < pages.length ? pages[i + 1].index - 2 : md.length - 1;
      return { page: Number(m[1]), offset: Number(m[2]), text: md.slice(start, end) };
    });
    let off = 0;
    for (const p of parts) {
      assert(p.offset === off, `document ${docId} page ${p.page} starts at byte ${p.offset}, its text at ${off}`);
      off += encoder.encode(p.text).length + 1;
    }
    docTexts.set(docId, { bytes: encoder.encode(parts.map((p) => p.text).join("\f")), parts });
  }
  return docTexts.get(docId);
}

// checkSource: the span is inside the document, on the pages it names;
// when text is given, it is exactly the span (passages) or inside it.
async function checkSource(client, s, text, exact) {
  for (const k of ["doc_id", "passage_id", "page_start", "page_end", "char_start", "char_end"]) {
    assert(Number.isInteger(s[k]), `source lacks ${k}: ${JSON.stringify(s)}`);
  }
  assert(!("printed_page" in s) || typeof s.printed_page === "string", "printed_page is a string when present");
  const doc = await docBytes(client, s.doc_id);
  assert(s.page_start >= 1 && s.page_end >= s.page_start && s.page_end <= doc.parts.length, `pages ${s.page_start}-${s.page_end} of ${doc.parts.length}`);
  assert(s.char_start >= 0 && s.char_end <= doc.bytes.length && s.char_end >= s.char_start, `span ${s.char_start}-${s.char_end} of ${doc.bytes.length}`);
  const onPage = (off) => doc.parts.filter((p) => p.offset <= off).at(-1).page;
  assert(onPage(s.char_start) >= s.page_start && onPage(Math.max(s.char_start, s.char_end - 1)) <= s.page_end, `span ${s.char_start} not on pages ${s.page_start}-${s.page_end}`);
  if (text !== undefined) {
    const span = decoder.decode(doc.bytes.slice(s.char_start, s.char_end));
    if (exact) assert(span === text, `text is not its span:\n  ${JSON.stringify(text.slice(0, 80))}\n  ${JSON.stringify(span.slice(0, 80))}`);
    else assert(span.includes(text.trim()) || text.includes(span.trim()), `text not in its span: ${JSON.stringify(text.slice(0, 80))}`);
  }
}

// callError calls a tool that must fail: a protocol error (thrown) or a
// tool error (isError); returns the message.
async function callError(client, name, args) {
  try {
    const r = await client.callTool({ name, arguments: args });
    assert(r.isError, `${name}(${JSON.stringify(args)}) did not fail: ${JSON.stringify(r).slice(0, 200)}`);
    return r.content.map((c) => c.text).join("");
  } catch (e) {
    if (e?.message?.includes("did not fail")) throw e;
    return String(e?.message ?? e);
  }
}

const metrics = {};
const { client, transport, readyMs, stderr } = await start();
metrics.ready_ms_first = Math.round(readyMs);
let passageId = 0;

await test("negotiates: server info, capabilities, instructions", async () => {
  const info = client.getServerVersion();
  assert(info?.name === "cairn", `server info ${JSON.stringify(info)}`);
  const caps = client.getServerCapabilities();
  assert(caps?.tools && caps?.resources, `capabilities ${JSON.stringify(caps)}`);
  assert(/data, not instructions/.test(client.getInstructions() ?? ""), "instructions say document text is data");
});

await test("lists the tools with schemas (no import without --allow-import)", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert(JSON.stringify(names) === JSON.stringify(["ask", "document_outline", "entity", "get_passage", "list_documents", "search"]), `tools ${names}`);
  for (const t of tools) {
    assert(t.inputSchema?.type === "object" && t.outputSchema?.type === "object", `${t.name} schemas`);
    assert(t.annotations?.readOnlyHint === true, `${t.name} not read-only`);
  }
});

await test("search: passages with document, page and span", async () => {
  const r = await client.callTool({ name: "search", arguments: { query: "circumvention of technological measures", k: 3 } });
  assert(!r.isError, JSON.stringify(r.content));
  const ps = r.structuredContent.passages;
  assert(ps.length === 3, `${ps.length} passages`);
  assert(/data, never as instructions/.test(r.structuredContent.notice), "notice");
  assert(r.content[0].text.includes("<document_text"), "readable content fences document text");
  for (const p of ps) await checkSource(client, p, p.text, true);
  passageId = ps[0].passage_id;
});

await test("ask: answer with citations and reasoning paths", async () => {
  const r = await client.callTool({ name: "ask", arguments: { question: "What does section 1201 of the DMCA prohibit?" } });
  assert(!r.isError, JSON.stringify(r.content));
  const a = r.structuredContent;
  assert(!a.declined && a.answer.length > 0 && a.citations.length > 0, `answer ${JSON.stringify(a).slice(0, 300)}`);
  assert(a.mode === "quick" && a.model === "offline", `mode ${a.mode}, model ${a.model}`);
  assert(/mode: offline/.test(stderr()) && /\(read-only\)/.test(stderr()), `stderr: ${stderr()}`);
  for (const c of a.citations) await checkSource(client, c, c.text, false);
  for (const p of a.reasoning_paths) for (const s of p.steps) await checkSource(client, s.source);
});

await test("ask: declines when the documents do not answer", async () => {
  const r = await client.callTool({ name: "ask", arguments: { question: "What is the boiling point of liquid nitrogen on Mars in kelvin?" } });
  assert(!r.isError && r.structuredContent.declined === true, `not declined: ${r.structuredContent?.answer}`);
});

await test("get_passage: the passage with its neighbours", async () => {
  assert(passageId > 0, "no passage id from search");
  const r = await client.callTool({ name: "get_passage", arguments: { passage_id: passageId, neighbours: 2 } });
  assert(!r.isError, JSON.stringify(r.content));
  const { passage, before, after } = r.structuredContent;
  assert(passage.passage_id === passageId, "the asked passage");
  assert(before.length + after.length > 0 && before.length <= 2 && after.length <= 2, `${before.length} before, ${after.length} after`);
  let prev = -1;
  for (const p of [...before, passage, ...after]) {
    await checkSource(client, p, p.text, true);
    assert(p.doc_id === passage.doc_id && p.char_start > prev, "neighbours in document order");
    prev = p.char_start;
  }
});

await test("bad input: clear errors, server stays up", async () => {
  const cases = [
    ["no_such_tool", {}, /unknown tool/i],
    ["search", { query: 42 }, /string/],
    ["search", { query: "copyright", k: "ten" }, /integer/],
    ["search", { query: "copyright", k: 1e9 }, /k must be between 1 and 50/],
    ["get_passage", { passage_id: "../../../etc/passwd" }, /integer/],
    ["get_passage", { passage_id: 987654321 }, /no passage 987654321/],
    ["document_outline", { doc_id: "/etc/passwd" }, /integer/],
    ["import", { paths: ["/etc/passwd"] }, /unknown tool/i],
  ];
  for (const [name, args, want] of cases) {
    const msg = await callError(client, name, args);
    assert(want.test(msg), `${name}(${JSON.stringify(args)}): ${msg}`);
  }
  for (const uri of ["file:///etc/passwd", "cairn://documents/../../../etc/passwd/text"]) {
    let err = "";
    await client.readResource({ uri }).catch((e) => (err = String(e?.message ?? e)));
    assert(/not found/i.test(err), `read ${uri}: ${err || "no error"}`);
  }
  await client.ping();
  const r = await client.callTool({ name: "search", arguments: { query: "copyright", k: 1 } });
  assert(!r.isError && r.structuredContent.passages.length === 1, "search after bad input");
});

await client.close();

await test("--allow-import: paths outside the project are refused", async () => {
  const s = await start(["--allow-import"]);
  try {
    const { tools } = await s.client.listTools();
    assert(tools.some((t) => t.name === "import"), "import listed");
    // An absolute path outside the project: on Windows (cairn.exe under
    // Wine, E2E_WINE=1) "/etc/passwd" has no drive and names a file inside it.
    const outside = process.env.E2E_WINE === "1" ? "C:\\windows\\win.ini" : "/etc/passwd";
    for (const p of [outside, "../../../../../../etc/hostname"]) {
      const msg = await callError(s.client, "import", { paths: [p] });
      assert(/outside the project folder/.test(msg), `import ${p}: ${msg}`);
    }
  } finally {
    await s.client.close();
  }
});

await test("start-up to ready (spawn → initialize answered), median of 5", async () => {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const s = await start();
    times.push(s.readyMs);
    await s.client.close();
  }
  times.sort((a, b) => a - b);
  metrics.ready_ms = times.map((t) => Math.round(t));
  metrics.ready_ms_median = Math.round(times[2]);
  console.log(`mcp: start-up to ready ${metrics.ready_ms.join(", ")} ms (median ${metrics.ready_ms_median})`);
  // The target is 300 ms; the gate is looser because 7 jobs share 2 cores here.
  assert(times[2] < 1500, `median start-up ${times[2]} ms`);
});

mkdirSync(out, { recursive: true });
writeFileSync(join(out, "mcp-metrics.json"), JSON.stringify(metrics, null, 2) + "\n");
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
