/**
 * `pi-session export` end to end over a memory file system: every format, branch choice,
 * redaction defaults and the summary on stderr, the safety of the HTML (CSP, only our
 * script, data that cannot close a tag), and the output rules (-o, -o -, --force, 0600).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { addSession, CWD, memoryFs, NOW, readText, runCli, writeText } from "../cli/_harness.ts";
import { buildSessionContext, parseSession, sessionUsage, SessionTree } from "../../src/core/mod.ts";
import { VIEWER_JS } from "../../src/export/html/viewer-bundle.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { VIEWER_CSS } from "../../src/export/html/viewer-style.ts";
import { fixtureEntries, fixtureText, MAIN_BRANCH, parseHtmlExport, SECRET, SESSION_ID, SIDE_BRANCH } from "./_fixture.ts";

async function setup() {
  const fs = memoryFs();
  await fs.mkdir(CWD, { recursive: true }); // the current directory, where exports go by default
  const path = await addSession(fs, SESSION_ID, [], { text: fixtureText() });
  return { fs, path };
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

const DEFAULT_HTML = `${CWD}/pi-session-${SESSION_ID}.html`;

describe("export --format html", () => {
  it("writes pi-session-<id>.html (0600) with the branch, masked, and says what it masked", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID], { fs });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${DEFAULT_HTML}\n`);
    assert.match(run.stderr, /Redacted 1: 1 openai key/);
    assert.equal(((await fs.stat(DEFAULT_HTML))!.mode) & 0o777, 0o600);
    const html = await readText(fs, DEFAULT_HTML);
    const parsed = parseHtmlExport(html);
    assert.deepEqual(parsed.entries.map((e) => e.id), MAIN_BRANCH);
    assert.equal(html.includes(SECRET), false);
    assert.ok(JSON.stringify(parsed.entries).includes("sk-proj-…[redacted openai key]"));
    assert.equal(parsed.meta.leafId, "s0000001");
    assert.deepEqual(parsed.meta.labels, { a0000003: "fixed </script><b>label</b>" });
    assert.deepEqual(parsed.meta.redaction, { secrets: true, paths: false, counts: [{ kind: "openai-key", label: "openai key", count: 1 }] });
  });

  it("has a CSP that allows no network and only the viewer's own script and style", async () => {
    const { fs } = await setup();
    await runCli(["export", SESSION_ID], { fs });
    const html = await readText(fs, DEFAULT_HTML);
    const { csp, scripts } = parseHtmlExport(html);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /img-src data:(;|$)/);
    assert.match(csp, new RegExp(`script-src 'sha256-${(await sha256(VIEWER_JS)).replace(/[+/]/g, "\\$&")}'`));
    assert.match(csp, new RegExp(`style-src 'sha256-${(await sha256(VIEWER_CSS)).replace(/[+/]/g, "\\$&")}'`));
    assert.doesNotMatch(csp, /unsafe|https?:|\*/);
    // The only script a browser runs is the viewer; data blocks are typed as non-script.
    const executable = scripts.filter((s) => !/type="application\/(x-ndjson|json)"/.test(s.attrs));
    assert.equal(executable.length, 1);
    assert.equal(executable[0].body, VIEWER_JS);
    assert.ok(html.indexOf("Content-Security-Policy") < html.indexOf("<style>"));
  });

  it("never puts session text into markup: data blocks hold no `<` at all", async () => {
    const { fs } = await setup();
    await runCli(["export", SESSION_ID, "--no-redact"], { fs });
    const html = await readText(fs, DEFAULT_HTML);
    const parsed = parseHtmlExport(html);
    const blocks = parsed.scripts.filter((s) => s.attrs.includes("pi-session-"));
    assert.ok(blocks.length >= 2);
    for (const block of blocks) assert.equal(block.body.includes("<"), false, "no < in a data block");
    assert.ok(blocks.some((b) => b.body.includes("\\u003c/script>\\u003cscript>window.__pwned")), "payloads are kept, escaped");
    // Outside the data blocks, the session name (escaped, in the title) is the only session text.
    let rest = html.replace(/<title>[^<]*<\/title>/, "");
    for (const block of blocks) rest = rest.replace(block.body, "");
    assert.equal(rest.includes("__pwned"), false);
    assert.equal(rest.includes("evil.example"), false);
    assert.equal(rest.includes("onerror"), false);
    assert.match(html, /<title>Export test &lt;\/title&gt;&lt;script&gt;window\.__pwned=&#39;name&#39;&lt;\/script&gt;<\/title>/);
    // The full round trip: what the viewer parses is what the session holds.
    assert.equal(JSON.stringify(parsed.entries).includes("</script><script>window.__pwned='script'</script>"), true);
  });

  it("--no-redact keeps secrets and warns; --redact-paths replaces the home directory", async () => {
    const { fs } = await setup();
    const plain = await runCli(["export", SESSION_ID, "--no-redact", "-o", "plain.html"], { fs });
    assert.match(plain.stderr, /not redacted/);
    assert.ok(JSON.stringify(parseHtmlExport(await readText(fs, `${CWD}/plain.html`)).entries).includes(SECRET));
    const paths = await runCli(["export", SESSION_ID, "--redact-paths", "-o", "paths.html"], { fs, env: { USER: "u" } });
    assert.equal(paths.code, 0, paths.stderr);
    const { meta } = parseHtmlExport(await readText(fs, `${CWD}/paths.html`));
    assert.equal((meta.header as { cwd: string }).cwd, "~/proj");
    assert.match(paths.stderr, /1 home directory/);
  });

  it("--all-branches embeds every entry; --leaf label:… picks a branch", async () => {
    const { fs } = await setup();
    await runCli(["export", SESSION_ID, "--all-branches", "-o", "all.html"], { fs });
    const all = parseHtmlExport(await readText(fs, `${CWD}/all.html`));
    assert.equal(all.entries.length, fixtureEntries().length);
    assert.equal(all.meta.allBranches, true);
    const run = await runCli(["export", SESSION_ID, "--leaf", "a0000004", "-o", "side.html"], { fs });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(parseHtmlExport(await readText(fs, `${CWD}/side.html`)).entries.map((e) => e.id), SIDE_BRANCH);
    const byLabel = await runCli(["export", SESSION_ID, "--leaf", "label:nope", "-o", "x.html"], { fs });
    assert.equal(byLabel.code, 2);
  });

  it("splits a line longer than a data block across blocks and keeps it whole", async () => {
    const fs = memoryFs();
    // Multi-byte characters and `<` across the block boundary: cuts fall between characters.
    const big = "ü<é".repeat(1.5 * 1024 * 1024);
    const entries = [{ type: "message", id: "u1", parentId: null, timestamp: NOW.toISOString(), message: { role: "user", content: big, timestamp: 1 } }];
    await addSession(fs, "big-1", entries);
    const run = await runCli(["export", "big-1", "-o", "-"], { fs });
    assert.equal(run.code, 0, run.stderr);
    const parsed = parseHtmlExport(run.stdout);
    assert.ok(parsed.scripts.filter((s) => s.attrs.includes("pi-session-data")).length >= 2);
    assert.equal((parsed.entries[0].message as { content: string }).content, big);
  });

  it("exports a version 1 file through migration, with the ids migration gives", async () => {
    const fs = memoryFs();
    const v1 = [
      { type: "session", id: "old-1", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "message", timestamp: "2024-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 } },
    ];
    await addSession(fs, "old-1", [], { text: v1.map((l) => JSON.stringify(l)).join("\n") + "\n" });
    const run = await runCli(["export", "old-1", "-o", "-"], { fs });
    assert.equal(run.code, 0, run.stderr);
    const { entries } = parseHtmlExport(run.stdout);
    const expected = parseSession(v1.map((l) => JSON.stringify(l)).join("\n")).entries.map((e) => e.id);
    assert.deepEqual(entries.map((e) => e.id), expected);
    assert.equal(entries[1].parentId, entries[0].id);
  });
});

describe("export output rules", () => {
  it("refuses to write over a file without --force (exit 1, file untouched), replaces it with --force", async () => {
    const { fs } = await setup();
    await writeText(fs, DEFAULT_HTML, "mine");
    const refused = await runCli(["export", SESSION_ID], { fs });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already exists/);
    assert.match(refused.stderr, /--force/);
    assert.equal(await readText(fs, DEFAULT_HTML), "mine");
    const forced = await runCli(["export", SESSION_ID, "--force"], { fs });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(await readText(fs, DEFAULT_HTML), /^<!DOCTYPE html>/);
    assert.equal(((await fs.stat(DEFAULT_HTML))!.mode) & 0o777, 0o600);
    assert.deepEqual((await fs.list(CWD)).map((e) => e.name).sort(), [`pi-session-${SESSION_ID}.html`]);
  });

  it("-o - writes to stdout and creates no file; -o DIR/FILE with a missing folder exits 2 unless --mkdir", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "json", "-o", "-"], { fs });
    assert.equal(run.code, 0);
    assert.equal(JSON.parse(run.stdout).header.id, SESSION_ID);
    assert.equal(await fs.stat(`${CWD}/pi-session-${SESSION_ID}.json`), null);
    const refused = await runCli(["export", SESSION_ID, "--format", "markdown", "-o", "out/deep/t.md"], { fs });
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, new RegExp(`^pi-session: Cannot write ${CWD}/out/deep/t\\.md: the folder ${CWD}/out/deep does not exist\nhint: Create it first, pass --mkdir`));
    assert.equal(await fs.stat(`${CWD}/out`), null);
    const nested = await runCli(["export", SESSION_ID, "--format", "markdown", "-o", "out/deep/t.md", "--mkdir", "--json"], { fs });
    assert.equal(nested.code, 0, nested.stderr);
    assert.equal(JSON.parse(nested.stdout).path, `${CWD}/out/deep/t.md`);
    assert.match(await readText(fs, `${CWD}/out/deep/t.md`), /^# Export test/);
  });

  it("will not print an HTML page on a terminal (exit 2, says where to write it); other formats and pipes are fine", async () => {
    const { fs } = await setup();
    const tty = await runCli(["export", SESSION_ID, "-o", "-"], { fs, stdoutIsTTY: true });
    assert.equal(tty.code, 2);
    assert.equal(tty.stdout, "");
    assert.match(tty.stderr, /^pi-session: Not printing an HTML page on the terminal\nhint: Write it to a file: leave out -o for pi-session-<id>\.html here, or -o FILE; or pipe it: -o - \| …\n$/);
    const piped = await runCli(["export", SESSION_ID, "-o", "-"], { fs });
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stdout, /^<!DOCTYPE html>/i);
    const markdown = await runCli(["export", SESSION_ID, "--format", "markdown", "-o", "-"], { fs, stdoutIsTTY: true });
    assert.equal(markdown.code, 0, markdown.stderr);
    const file = await runCli(["export", SESSION_ID], { fs, stdoutIsTTY: true });
    assert.equal(file.code, 0, file.stderr);
  });

  it("uses the extension of the format in the default name", async () => {
    const { fs } = await setup();
    for (const [format, ext] of [["markdown", "md"], ["jsonl", "jsonl"], ["json", "json"], ["ndjson", "ndjson"]]) {
      const run = await runCli(["export", SESSION_ID, "--format", format], { fs });
      assert.equal(run.stdout, `${CWD}/pi-session-${SESSION_ID}.${ext}\n`);
    }
  });

  it("reports a file that is not a session with exit 3, writing nothing", async () => {
    const fs = memoryFs();
    await writeText(fs, `${CWD}/notes.jsonl`, '{"hello":1}\n');
    const run = await runCli(["export", `${CWD}/notes.jsonl`], { fs });
    assert.equal(run.code, 3);
    assert.deepEqual((await fs.list(CWD)).map((e) => e.name), ["notes.jsonl"]);
  });
});

describe("export --format markdown", () => {
  it("writes a header with name, id, cwd, models, dates, tokens and cost, then the transcript", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "markdown", "-o", "-"], { fs });
    assert.equal(run.code, 0, run.stderr);
    const md = run.stdout;
    const branch = parseSession(fixtureText()).entries.filter((e) => MAIN_BRANCH.includes(e.id));
    const usage = sessionUsage(branch).totals;
    assert.match(md, /^# Export test &lt;\/title>&lt;script>/);
    assert.match(md, /\| Session \| `exp-0001` \|/);
    assert.match(md, /\| Directory \| `\/home\/u\/proj` \|/);
    assert.match(md, /\| Models \| anthropic\/claude-test \|/);
    assert.match(md, /\| Started \| 2024-01-01 00:00 UTC \|/);
    assert.ok(md.includes(`| Cost | $${usage.cost.total.toFixed(4)} |`));
    assert.ok(md.includes(`${usage.totalTokens.toLocaleString("en-US")} (input`));
    assert.match(md, /<details>\n<summary>Thinking<\/summary>\n\nLet me look at the file first\./);
    assert.match(md, /\*\*→ `read`\*\*/);
    assert.match(md, /```read\nexport const a = 1 - 1;/);
    assert.match(md, /> We fixed `a`/);
    assert.ok(md.includes("sk-proj-…[redacted openai key]"));
    assert.equal(md.includes(SECRET), false);
    assert.match(md, /secrets redacted: 1 openai key/);
    assert.equal(md.includes("Side answer"), false);
  });

  it("--all-branches adds each other branch from where it forks", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "markdown", "--all-branches", "-o", "-"], { fs });
    assert.match(run.stdout, /## Branch ending at `a0000004` \(forks after `a0000003`\)/);
    assert.ok(run.stdout.indexOf("Side answer") > run.stdout.indexOf("## Branch ending at"));
  });
});

describe("export --format jsonl and json", () => {
  it("jsonl is pi's /export: a new header, the branch as a chain with the same ids, the same context", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "jsonl", "--leaf", "a0000004", "-o", "-"], { fs });
    assert.equal(run.code, 0, run.stderr);
    const exported = parseSession(run.stdout);
    assert.deepEqual(exported.issues, []);
    assert.deepEqual(exported.header, { type: "session", version: 3, id: SESSION_ID, timestamp: NOW.toISOString(), cwd: "/home/u/proj" });
    assert.deepEqual(exported.entries.map((e) => e.id), SIDE_BRANCH);
    exported.entries.forEach((e, i) => assert.equal(e.parentId, i === 0 ? null : SIDE_BRANCH[i - 1]));
    assert.equal(new SessionTree(exported.entries).getLabel("a0000003"), "fixed </script><b>label</b>");
    const original = parseSession(fixtureText());
    assert.deepEqual(buildSessionContext(exported.entries), buildSessionContext(original.entries, "a0000004"));
    // Not redacted by default, as pi's export.
    assert.ok(run.stdout.includes(SECRET));
  });

  it("jsonl of a hand-edited file: the branch root to leaf whatever the line order, an entry that no longer parses left out", async () => {
    const fs = memoryFs();
    const message = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
    const text = [
      JSON.stringify({ type: "session", version: 3, id: "hand0001", timestamp: "2025-06-01T10:00:00.000Z", cwd: CWD }),
      message("c", "b", "third"),
      message("a", null, "first"),
      // The linking fields read, the rest does not parse: the tree has it, the export cannot.
      '{"type":"message","id":"b","parentId":"a","timestamp":"2025-06-01T10:00:01.000Z","message":{oops}}',
      message("d", "a", "other branch"),
      "",
    ].join("\n");
    const path = await addSession(fs, "hand0001", [], { text });
    const run = await runCli(["export", path, "--format", "jsonl", "--leaf", "c", "-o", "-"], { fs });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n").slice(1).map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((e) => [e.id, e.parentId, e.message.content]), [["a", null, "first"], ["c", "a", "third"]]);
  });

  it("jsonl --redact masks and still parses", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "jsonl", "--redact", "-o", "-"], { fs });
    assert.equal(run.stdout.includes(SECRET), false);
    assert.deepEqual(parseSession(run.stdout).issues, []);
    assert.match(run.stderr, /1 openai key/);
  });

  it("json is {header, leafId, entries} with the stored entries", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "json", "-o", "-"], { fs });
    const value = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(value), ["header", "leafId", "entries"]);
    assert.equal(value.leafId, "s0000001");
    const original = fixtureEntries();
    assert.deepEqual(value.entries, MAIN_BRANCH.map((id) => JSON.parse(JSON.stringify(original.find((e) => e.id === id)))));
  });
});

describe("export --format ndjson", () => {
  it("writes one flat row per entry of the file whose tokens and cost sum to the usage totals", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "ndjson", "-o", "-"], { fs });
    const rows = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const entries = fixtureEntries();
    assert.equal(rows.length, entries.length);
    const totals = sessionUsage(entries).totals;
    const sum = (key: string) => rows.reduce((n, r) => n + (r[key] ?? 0), 0);
    assert.equal(sum("total_tokens"), totals.totalTokens);
    assert.equal(sum("input_tokens"), totals.input);
    assert.ok(Math.abs(sum("cost") - totals.cost.total) < 1e-9);
    const call = rows.find((r) => r.entry_id === "a0000001");
    assert.deepEqual(
      { role: call.role, model: call.model, provider: call.provider, tool_name: call.tool_name, session_id: call.session_id, cwd: call.cwd, parent_id: call.parent_id },
      { role: "assistant", model: "claude-test", provider: "anthropic", tool_name: "read", session_id: SESSION_ID, cwd: "/home/u/proj", parent_id: "u0000001" },
    );
    assert.equal(rows.find((r) => r.entry_id === "r0000001").tool_name, "read");
    assert.equal(rows.find((r) => r.entry_id === "l0000001").text, "fixed </script><b>label</b>");
    assert.equal(rows.find((r) => r.entry_id === "u0000002").input_tokens, null);
  });

  it("--leaf limits the rows to that branch", async () => {
    const { fs } = await setup();
    const run = await runCli(["export", SESSION_ID, "--format", "ndjson", "--leaf", "a0000004", "-o", "-"], { fs });
    assert.deepEqual(run.stdout.trim().split("\n").map((line) => JSON.parse(line).entry_id), SIDE_BRANCH);
  });
});

describe("export -o onto a device or a pipe", () => {
  it("writes into it as output comes, without --force, and never replaces it (a rename over /dev/null made a plain file of it)", async () => {
    const device = "/dev/null";
    const appended: Uint8Array[] = [];
    // The memory file system has no devices: this one answers for /dev/null as a character device does.
    class WithDevice extends MemoryFileSystem {
      override stat(path: string) {
        return path === device ? Promise.resolve({ size: 0, mtimeMs: 0, isFile: false, isDirectory: false, mode: 0o666 }) : super.stat(path);
      }
      override append(path: string, data: Uint8Array) {
        if (path !== device) return super.append(path, data);
        appended.push(data.slice());
        return Promise.resolve();
      }
      override writeAtomic(path: string, ...rest: Parameters<MemoryFileSystem["writeAtomic"]> extends [string, ...infer R] ? R : never) {
        if (path === device) assert.fail(`writeAtomic(${path}) over the device`);
        return super.writeAtomic(path, ...rest);
      }
    }
    const fs = new WithDevice({ clock: () => NOW.getTime(), cwd: CWD });
    await addSession(fs, SESSION_ID, [], { text: fixtureText() });
    for (const format of ["html", "markdown", "jsonl"]) {
      appended.length = 0;
      const run = await runCli(["export", SESSION_ID, "--format", format, "-o", device], { fs });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(appended.reduce((n, piece) => n + piece.length, 0) > 0, `${format}: the output went into the device`);
    }
  });
});
