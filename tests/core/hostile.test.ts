/**
 * Hostile input: every corpus case must read, index, tree and build contexts without
 * throwing or hanging, report exactly the expected issues, and reading from disk must not write.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildSessionContext,
  convertToLlm,
  type IssueCode,
  parseSession,
  type ReadIssue,
  readSession,
  type SessionContext,
  type SessionFile,
  SessionTree,
  type SessionTreeNode,
} from "../../src/core/mod.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { hostileCorpus } from "./_hostile-corpus.ts";

/** Contexts are built at the default leaf and at up to this many leaves per case. */
const MAX_LEAVES = 2000;
/** The big cases take seconds on a busy machine; Bun's default per-test limit is 5 s. */
const SLOW = { timeout: 120_000 };

/**
 * What each case must report: `[code, line]`, from the reader and from `findIssues`. Field,
 * type and role problems are `checkEntries`' job, so e.g. "malformed-compaction" expects none here.
 */
const EXPECTED: Record<string, [IssueCode, number][]> = {
  "empty": [["empty-file", 0]],
  "whitespace-only": [["not-a-session", 0]],
  "garbage-bytes": [["not-a-session", 0], ["invalid-utf8", 1], ["torn-line", 1]],
  "no-header": [["not-a-session", 1]],
  "header-not-first": [["not-a-session", 1]],
  "garbage-before-header": [["malformed-json", 1]],
  "header-only": [],
  "torn-tail": [["torn-line", 4]],
  "no-final-newline": [["missing-newline", 3]],
  "bom": [["bom", 1]],
  "crlf": [["crlf", 0]],
  "cr-only-line-endings": [["crlf", 0], ["not-a-session", 0], ["malformed-json", 1]],
  "nul-and-control-bytes": [["malformed-json", 2]],
  "invalid-utf8": [["invalid-utf8", 2]],
  "many-blank-lines": [["crlf", 0]],
  "self-parent": [["self-parent", 3]],
  "two-cycle": [["cycle", 3]],
  "cycle-below-root": [["cycle", 4]],
  "missing-parent": [["missing-parent", 3]],
  "duplicate-ids": [["duplicate-id", 4]],
  "duplicate-id-cycle": [["cycle", 3], ["duplicate-id", 4]],
  "duplicate-header": [["duplicate-header", 3]],
  "non-object-lines": [2, 3, 4, 5, 6].map((line): [IssueCode, number] => ["not-an-object", line]),
  "missing-fields": [["missing-field", 2], ["missing-field", 3], ["missing-field", 4], ["missing-field", 5]],
  "unknown-types-and-roles": [],
  "null-or-missing-content": [],
  "message-not-an-object": [],
  "malformed-compaction": [],
  "malformed-context-edits": [],
  "label-missing-target": [["label-target-missing", 3], ["label-target-missing", 5]],
  "prototype-keys": [],
  "absurd-numbers": [],
  "version-not-a-number": [],
  "version-from-the-future": [],
  "v1-bad-compaction-index": [],
  "deep-nesting": [["too-deep", 2]],
  "chain-200k": [],
  "children-50k": [],
  "line-64mb": [],
};

/** Further checks for cases where surviving is not enough. */
const CHECKS: Record<string, (file: SessionFile, tree: SessionTree, context: SessionContext) => void> = {
  "two-cycle": (_, tree) => assert.deepEqual(tree.getPath().map((e) => e.id), ["a", "b"]),
  "cycle-below-root": (_, tree) => assert.deepEqual(tree.getPath().map((e) => e.id), ["y", "x", "z"]),
  "malformed-compaction": (_file, _tree, context) => {
    // c3 (summary an object) speaks; its firstKeptEntryId (a number) keeps nothing.
    assert.deepEqual(context.messages.map((m) => m.role), ["compactionSummary", "assistant"]);
  },
  "prototype-keys": (_, tree) => {
    assert.equal(tree.getLabel("__proto__"), "__proto__");
    assert.equal(tree.sessionName, "__proto__");
    assert.equal(tree.getPath().length, 5);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  },
  "version-from-the-future": (file) => assert.equal(file.migrated, false),
  // One message per entry, so this is also the length of the path.
  "chain-200k": (_file, _tree, context) => assert.equal(context.messages.length, 200_000),
  "children-50k": (_, tree) => assert.equal(tree.leaves().length, 50_000),
  "line-64mb": (file, _, context) => {
    const content = (file.entries[0] as { message: { content: string } }).message.content;
    assert.equal(content.length, 64 * 1024 * 1024);
    assert.equal(context.messages.length, 2);
  },
};

function byLineThenCode(a: [string, number], b: [string, number]): number {
  return a[1] - b[1] || a[0].localeCompare(b[0]);
}

function countNodes(roots: SessionTreeNode[]): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count++;
    for (const child of node.children) stack.push(child);
  }
  return count;
}

/** Everything a reader of the file would do with it; returns all issues and the default context. */
function exercise(file: SessionFile, tree: SessionTree): { issues: ReadIssue[]; context: SessionContext } {
  const issues = [...file.issues, ...tree.findIssues(file.entryLines)];
  assert.equal(countNodes(tree.getTree()), tree.byId.size);
  const context = buildSessionContext(file.entries, tree.leafId, tree.byId);
  assert.ok(Array.isArray(convertToLlm(context.messages)));
  for (const leaf of tree.leaves().slice(0, MAX_LEAVES)) {
    if (leaf.id === tree.leafId) continue;
    assert.ok(tree.getPath(leaf.id).length <= tree.byId.size);
    convertToLlm(buildSessionContext(file.entries, leaf.id, tree.byId).messages);
  }
  return { issues, context };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Size, mtime and content hash of a file. */
async function fingerprint(path: string): Promise<string> {
  const info = await stat(path);
  return `${info.size} ${info.mtimeMs} ${await sha256(await readFile(path))}`;
}

/** The parts of a read that must not depend on how the bytes arrived. */
function summary(file: SessionFile) {
  const { entries, ...rest } = file;
  return { ...rest, ids: entries.map((e) => e.id), types: entries.map((e) => e.type) };
}

const corpus = hostileCorpus();
// One directory for the whole file; the last test checks that it holds nothing else, then removes it.
const dir = await mkdtemp(join(tmpdir(), "pi-session-hostile-"));

test("the hostile corpus has at least 25 uniquely named cases, each with an expectation", () => {
  const names = corpus.map((c) => c.name);
  assert.ok(names.length >= 25, `${names.length} cases`);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual([...names].sort(), Object.keys(EXPECTED).sort());
});

for (const hostile of corpus) {
  test(`parseSession(), readSession() from disk, SessionTree and the context survive "${hostile.name}"`, SLOW, async () => {
    const bytes = hostile.bytes;
    const file = parseSession(bytes);
    const tree = new SessionTree(file.entries);
    const { issues, context } = exercise(file, tree);
    const actual = issues.map((i): [string, number] => [i.code, i.line]).sort(byLineThenCode);
    assert.deepEqual(actual, [...EXPECTED[hostile.name]].sort(byLineThenCode));
    for (const i of issues) {
      assert.ok(i.message.length > 0 && i.message.length < 300, `message of ${i.code}: ${i.message.slice(0, 80)}`);
      assert.ok(i.line >= 0 && i.line <= file.lineCount, `line ${i.line} of ${file.lineCount}`);
    }
    if (file.notSession) assert.deepEqual(file.entries, []);
    CHECKS[hostile.name]?.(file, tree, context);

    // The same bytes streamed from disk in the adapter's chunks read the same, and stay untouched.
    const path = join(dir, `${hostile.name}.jsonl`);
    await writeFile(path, bytes);
    const before = await fingerprint(path);
    const streamed = await readSession(nodeFileSystem.read(path));
    assert.deepEqual(summary(streamed), summary(file));
    assert.equal(await fingerprint(path), before);
  });
}

test("reading the hostile files wrote nothing beside them", async () => {
  try {
    assert.deepEqual((await readdir(dir)).sort(), corpus.map((c) => `${c.name}.jsonl`).sort());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
