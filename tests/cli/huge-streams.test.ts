/**
 * Issue 22: `show`, `tree` and `export` stream a session (a light pass, then its lines a few
 * megabytes at a time) instead of holding it whole. Differential: on a chained session of the
 * export fixture's shape (branches, labels, a compaction, secrets, markup; chained copies made by
 * the bench's own chain-session script) and on broken files, each prints byte for byte what the
 * whole-file path printed: `sessionTranscript`, `sessionTree` and the former Markdown export.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chainSession } from "../../scripts/bench/chain-session.ts";
import { parseSession } from "../../src/core/read/read-session.ts";
import { Redactor } from "../../src/core/redact/redactor.ts";
import type { FileSystem, ReadRange } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { versioned } from "../../src/query/json-version.ts";
import { leanSessionTree } from "../../src/query/lean-tree.ts";
import { sessionTranscript } from "../../src/query/transcript.ts";
import { sessionTree } from "../../src/query/tree.ts";
import { createColors } from "../../src/render/colors.ts";
import { entryBlock, transcriptLines } from "../../src/render/transcript.ts";
import { markdownTranscript } from "../../src/render/transcript-markdown.ts";
import type { TreeFilter } from "../../src/render/tree-rows.ts";
import { markdownWhole } from "../export/_markdown-whole.ts";
import { fixtureText } from "../export/_fixture.ts";
import { SessionTree } from "../../src/core/tree/session-tree.ts";
import { treeJson } from "../../src/query/tree.ts";
import { oneLine } from "../../src/render/control-chars.ts";
import { filterTag, renderTreeRow, TREE_FILTERS, treeRows } from "../../src/render/tree-rows.ts";
import { uniquePrefixes } from "../../src/render/unique-prefix.ts";
import { CWD, HOME, NOW, runCli, writeText } from "./_harness.ts";
import { longLineText } from "./_long-lines.ts";

/**
 * A memory file system whose reads hand out one reused buffer (as the node adapter's do with
 * `reuseBuffer`), in small chunks: a line kept past its chunk shows up as garbage.
 */
class ReusingFs extends MemoryFileSystem {
  override async *read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
    const shared = new Uint8Array(4096);
    for await (const chunk of super.read(path, range)) {
      if (!range.reuseBuffer) {
        yield chunk;
        continue;
      }
      shared.set(chunk);
      yield shared.subarray(0, chunk.length);
      shared.fill(0x21);
    }
  }
}

const EXAMPLES = new URL("../../examples/", import.meta.url);
const FILES: Record<string, string> = {};
let dir = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-session-huge-streams-"));
  const source = join(dir, "fixture.jsonl");
  writeFileSync(source, fixtureText());
  // About 60 copies of the fixture, each hanging off the one before (branches, labels and all).
  chainSession(source, join(dir, "chained.jsonl"), { targetBytes: 400_000, sessionId: "chained-0001", cwd: "/work/proj" });
  FILES.chained = readFileSync(join(dir, "chained.jsonl"), "utf8");
  // Chained copies of a session of long lines (tool outputs of many kilobytes, long texts in
  // every field a row shows): what the lean reads skim.
  writeFileSync(join(dir, "long.jsonl"), longLineText());
  chainSession(join(dir, "long.jsonl"), join(dir, "long-chained.jsonl"), { targetBytes: 1_200_000, sessionId: "long-0001", cwd: "/work/proj" });
  FILES.long = readFileSync(join(dir, "long-chained.jsonl"), "utf8");
  FILES.torn = readFileSync(new URL("broken/torn-tail.jsonl", EXAMPLES), "utf8");
  FILES.cycle = readFileSync(new URL("broken/cycle.jsonl", EXAMPLES), "utf8");
  // A version 1 file: read whole (ids are assigned across the file), the same answers.
  FILES.legacy = readFileSync(new URL("agent/sessions/--home-dev-old-project--/2025-01-10T08-00-00-000Z_legacy-v1-session.jsonl", EXAMPLES), "utf8");
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function fsWith(name: string): Promise<{ fs: FileSystem; path: string }> {
  const fs = new ReusingFs({ clock: () => NOW.getTime(), cwd: CWD, chunkSize: 997 });
  const path = `${CWD}/${name}.jsonl`;
  await writeText(fs, path, FILES[name]);
  return { fs, path };
}

const quiet = { warn() {}, notice() {}, note() {} };

describe("show streams the branch", () => {
  for (const name of ["chained", "torn", "cycle", "legacy"]) {
    for (const filter of ["all", "user-only", "no-tools"] as TreeFilter[]) {
      it(`show prints what the whole-file transcript printed (${name}, --filter ${filter})`, async () => {
        const { fs, path } = await fsWith(name);
        const env = { fs, storage: { env: () => undefined, home: HOME, processCwd: CWD }, cwd: CWD, report: quiet } as never;
        const { value, tree, title } = await sessionTranscript(env, { ref: path, filter });
        const options = { thinking: true, usage: true, labels: tree.labels };
        const blocks = value.entries.map((entry) => entryBlock(entry, options)).filter((block) => block !== null);
        const text = transcriptLines(blocks, createColors(false)).map((line) => line + "\n").join("");
        const flags = ["--filter", filter, "--thinking", "--usage"];
        assert.equal((await runCli(["show", path, ...flags], { fs })).stdout, text);
        const markdown = await runCli(["show", path, ...flags, "--format", "markdown"], { fs });
        assert.equal(markdown.stdout, markdownTranscript(title, path, value.leafId, blocks));
        const json = await runCli(["show", path, ...flags, "--json"], { fs });
        assert.equal(json.stdout, JSON.stringify(versioned(value), null, 2) + "\n");
      });
    }
  }

  it("show --leaf on a side branch prints that branch", async () => {
    const { fs, path } = await fsWith("chained");
    const env = { fs, storage: { env: () => undefined, home: HOME, processCwd: CWD }, cwd: CWD, report: quiet } as never;
    const whole = await sessionTranscript(env, { ref: path, leaf: "a0000004" });
    const run = await runCli(["show", path, "--leaf", "a0000004", "--json"], { fs });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, JSON.stringify(versioned(whole.value), null, 2) + "\n");
  });

  it("show on a file that is not a session names its first line, as a whole read does", async () => {
    const fs = new ReusingFs({ cwd: CWD });
    await writeText(fs, `${CWD}/x.jsonl`, '{"type":"message","id":"a"}\n');
    const run = await runCli(["show", `${CWD}/x.jsonl`], { fs });
    assert.equal(run.code, 3);
    assert.match(run.stderr, /line 1 should be a session header/);
  });
});

describe("tree keeps row facts, not entries", () => {
  for (const name of ["chained", "long", "torn", "cycle", "legacy"]) {
    it(`leanSessionTree() gives the rows of sessionTree() (${name})`, async () => {
      const { fs, path } = await fsWith(name);
      const env = { fs, storage: { env: () => undefined, home: "/home/dev", processCwd: CWD }, cwd: CWD, report: quiet } as never;
      for (const filter of ["default", "no-tools", "user-only", "labeled-only", "all"] as TreeFilter[]) {
        const whole = await sessionTree(env, { ref: path, filter });
        const lean = await leanSessionTree(env, { ref: path, filter });
        assert.deepEqual(lean.rows, whole.rows, filter);
        assert.deepEqual(lean.json(), whole.value, filter);
      }
    });
  }
});

/** What `tree` printed when it read the whole file (full entries, rows from them), piped. */
function wholeTreeText(text: string, filter: TreeFilter, withIds: boolean): string {
  const tree = new SessionTree(parseSession(text).entries);
  const rows = treeRows(tree, { filter, home: HOME });
  const ids = uniquePrefixes([...tree.byId.keys()]);
  const idWidth = rows.reduce((widest, row) => Math.max(widest, ids.get(row.entryId)!.length), 0);
  let out = "";
  for (const row of rows) out += (withIds ? `${oneLine(ids.get(row.entryId)!).padEnd(idWidth)}  ` : "") + renderTreeRow(row, Infinity) + "\n";
  if (rows.length === 0) out += "No entries found\n";
  return out + `(${rows.length} ${rows.length === 1 ? "entry" : "entries"})${filterTag(filter)}\n`;
}

describe("tree prints what the whole-file path printed", () => {
  it("the long-line session has lines the lean read skims", () => {
    const lines = FILES.long.split("\n");
    assert.ok(lines.filter((line) => line.length >= 4096 && line.includes('"role":"toolResult"')).length >= 10);
    assert.ok(lines.some((line) => line.length >= 4096 && line.includes('"role":"user"')));
    assert.ok(lines.some((line) => line.length >= 4096 && line.includes('"role":"assistant"')));
  });

  for (const name of ["long", "chained", "torn", "cycle", "legacy"]) {
    it(`tree and tree --json print the whole-file output byte for byte, in every filter (${name})`, async () => {
      const { fs, path } = await fsWith(name);
      for (const filter of TREE_FILTERS) {
        const tree = new SessionTree(parseSession(FILES[name]).entries);
        const json = JSON.stringify(versioned(treeJson(tree.leafId, filter, treeRows(tree, { filter, home: HOME }))), null, 2) + "\n";
        assert.equal((await runCli(["tree", path, "--filter", filter], { fs })).stdout, wholeTreeText(FILES[name], filter, true), filter);
        assert.equal((await runCli(["tree", path, "--filter", filter, "--no-ids"], { fs })).stdout, wholeTreeText(FILES[name], filter, false), filter);
        assert.equal((await runCli(["tree", path, "--filter", filter, "--json"], { fs })).stdout, json, filter);
      }
    });
  }
});

describe("export streams every format", () => {
  for (const name of ["chained", "torn", "cycle", "legacy"]) {
    for (const allBranches of [false, true]) {
      it(`export --format markdown writes what the whole-file export wrote (${name}${allBranches ? ", --all-branches" : ""})`, async () => {
        const { fs, path } = await fsWith(name);
        const file = parseSession(FILES[name]);
        const extra = allBranches ? ["--all-branches"] : [];
        const run = await runCli(["export", path, "--format", "markdown", "-o", "-", ...extra], { fs });
        assert.equal(run.code, 0, run.stderr);
        const leaf = file.entries.at(-1)?.id ?? null;
        const { SessionTree } = await import("../../src/core/tree/session-tree.ts");
        const tree = new SessionTree(file.entries);
        const keep = new Set((allBranches ? file.entries : tree.getPath(leaf)).map((entry) => entry.id));
        const generator = run.stdout.match(/UTC by (pi-session [^ *·]+)/)![1];
        const redactor = new Redactor({ secrets: true });
        assert.equal(run.stdout, markdownWhole({ file, keep, leafId: leaf, allBranches, redactor, now: NOW, generator }));
        assert.match(run.stderr, new RegExp(`Redacted ${redactor.total}|Redacted nothing`));
      });
    }

    it(`export --format jsonl writes the branch re-parented in order, as a whole read gives it (${name})`, async () => {
      const { fs, path } = await fsWith(name);
      const file = parseSession(FILES[name]);
      const { SessionTree } = await import("../../src/core/tree/session-tree.ts");
      const branch = new SessionTree(file.entries).getPath(file.entries.at(-1)?.id ?? null);
      const run = await runCli(["export", path, "--format", "jsonl", "-o", "-"], { fs });
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split("\n").slice(1);
      let parentId: string | null = null;
      const expected = branch.map((entry) => {
        const line = JSON.stringify({ ...entry, parentId });
        parentId = entry.id;
        return line;
      });
      assert.deepEqual(lines, expected);
    });
  }
});
