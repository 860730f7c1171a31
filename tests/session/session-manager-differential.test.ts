/**
 * Differential test against pi 1.6.0's SessionManager: both sides run the same random script
 * of appends, labels, names, compactions, context edits, branches and branched sessions
 * (persisted to temp dirs), and must agree on entries, files, tree, labels, name and context.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { SessionEntry } from "../../src/core/format/types.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { usage } from "./_fixtures.ts";
import { contextJson, entryJson, fileLines, loadReference, makeMessage, mulberry32, treeShape } from "./_differential.ts";

const SEEDS = 100;
const OPS = 30;

/** The reference is plain JavaScript; its objects are handled as JSON. */
type Any = any;

const { ref, skip } = await loadReference();

const work = mkdtempSync(join(tmpdir(), "pi-session-smdiff-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** Both managers, the id maps between them, and the file pairs they have written. */
class Pair {
  readonly ours: SessionManager;
  readonly ref: Any;
  readonly toRef = new Map<string, string>();
  readonly toOurs = new Map<string, string>();
  readonly files: [string, string][] = [];

  constructor(ours: SessionManager, reference: Any) {
    this.ours = ours;
    this.ref = reference;
    this.files.push([ours.getSessionFile()!, reference.getSessionFile()]);
  }

  /** Pairs up entries by position; both sides must hold the same sequence. */
  sync(): void {
    const ours = this.ours.getEntries();
    const theirs: Any[] = this.ref.getEntries();
    assert.equal(ours.length, theirs.length, "entry count");
    ours.forEach((entry, i) => {
      const known = this.toRef.get(entry.id);
      if (known !== undefined) assert.equal(known, theirs[i].id, `entry ${i} pairs with a different reference entry`);
      this.toRef.set(entry.id, theirs[i].id);
      this.toOurs.set(theirs[i].id, entry.id);
    });
  }

  refId(id: string | null): string | null {
    return id === null ? null : this.toRef.get(id) ?? id;
  }
}

/** Runs `fn` on both sides; they must both succeed or both throw the same message. */
async function both(pair: Pair, what: string, ours: () => Promise<unknown> | unknown, theirs: () => unknown): Promise<void> {
  let ourError: string | undefined;
  let refError: string | undefined;
  try {
    await ours();
  } catch (error) {
    ourError = (error as Error).message;
  }
  try {
    theirs();
  } catch (error) {
    refError = (error as Error).message;
    for (const [refId, ourId] of pair.toOurs) refError = refError.replaceAll(refId, ourId);
  }
  assert.equal(ourError, refError, `${what}: errors differ`);
}

/** One random operation, applied to both sides. */
async function step(pair: Pair, rand: () => number, n: number): Promise<string> {
  const { ours, ref: theirs } = pair;
  const entries = ours.getEntries();
  const any = () => entries.length > 0 && rand() < 0.93 ? entries[Math.floor(rand() * entries.length)].id : "nope0000";
  const onBranch = () => {
    const branch = ours.getBranch();
    return branch.length > 0 ? branch[Math.floor(rand() * branch.length)].id : undefined;
  };
  const roll = Math.floor(rand() * 100);
  if (roll < 35) {
    const message = makeMessage(rand, n);
    await both(pair, "appendMessage", () => ours.appendMessage(message), () => theirs.appendMessage(message));
    return `message ${message.role}`;
  }
  if (roll < 39) {
    const level = ["off", "low", "high"][n % 3];
    await both(pair, "thinking", () => ours.appendThinkingLevelChange(level), () => theirs.appendThinkingLevelChange(level));
    return "thinking";
  }
  if (roll < 43) {
    await both(pair, "model", () => ours.appendModelChange("p", `m${n}`), () => theirs.appendModelChange("p", `m${n}`));
    return "model";
  }
  if (roll < 50) {
    const first = rand() < 0.3 ? undefined : rand() < 0.8 ? onBranch() : any();
    const details = rand() < 0.5 ? { readFiles: ["a"], modifiedFiles: [] } : undefined;
    const hook = rand() < 0.3 ? true : undefined;
    await both(pair, "compaction", () => ours.appendCompaction(`sum ${n}`, first, 100 + n, details, hook, usage),
      () => theirs.appendCompaction(`sum ${n}`, first === undefined ? undefined : pair.refId(first), 100 + n, details, hook, usage));
    return `compaction ${first}`;
  }
  if (roll < 53) {
    await both(pair, "custom", () => ours.appendCustomEntry("ext", { n }), () => theirs.appendCustomEntry("ext", { n }));
    return "custom";
  }
  if (roll < 57) {
    const content = rand() < 0.5 ? `cm ${n}` : [{ type: "text" as const, text: `cm ${n}` }];
    const display = rand() < 0.5;
    await both(pair, "custom message", () => ours.appendCustomMessageEntry("ext", content, display, { n }), () => theirs.appendCustomMessageEntry("ext", content, display, { n }));
    return "custom message";
  }
  if (roll < 61) {
    const name = ["", "  ", `name ${n}`, `two\r\nlines ${n} `][Math.floor(rand() * 4)];
    await both(pair, "session info", () => ours.appendSessionInfo(name), () => theirs.appendSessionInfo(name));
    return `name ${JSON.stringify(name)}`;
  }
  if (roll < 69) {
    const target = any();
    const label = [undefined, "", `label ${n}`, `label ${n}`][Math.floor(rand() * 4)];
    await both(pair, "label", () => ours.appendLabelChange(target, label), () => theirs.appendLabelChange(pair.refId(target), label));
    return `label ${target} ${label}`;
  }
  if (roll < 72) {
    const note = rand() < 0.5 ? "warm" : undefined;
    await both(pair, "usage", () => ours.appendUsage("cache_warm", "p", "m", usage, note), () => theirs.appendUsage("cache_warm", "p", "m", usage, note));
    return "usage";
  }
  if (roll < 79) {
    const target = rand() < 0.7 ? onBranch() ?? any() : any();
    const replacement = [null, { content: `edit ${n}` }, { content: [{ type: "text" as const, text: `e${n}` }] }, { bad: 1 }][Math.floor(rand() * 4)] as never;
    await both(pair, "context edit", () => ours.appendContextEdit(target, replacement), () => theirs.appendContextEdit(pair.refId(target), replacement));
    return `context edit ${target}`;
  }
  if (roll < 86) {
    const target = any();
    await both(pair, "branch", () => ours.branch(target), () => theirs.branch(pair.refId(target)));
    return `branch ${target}`;
  }
  if (roll < 88) {
    ours.resetLeaf();
    theirs.resetLeaf();
    return "resetLeaf";
  }
  if (roll < 94) {
    const target = rand() < 0.2 ? null : any();
    const hook = rand() < 0.5;
    await both(pair, "branchWithSummary", () => ours.branchWithSummary(target, `left ${n}`, { n }, hook, usage),
      () => theirs.branchWithSummary(pair.refId(target), `left ${n}`, { n }, hook, usage));
    return `branchWithSummary ${target}`;
  }
  const target = any();
  const before = [ours.getSessionFile()!, theirs.getSessionFile()] as [string, string];
  await both(pair, "createBranchedSession", () => ours.createBranchedSession(target), () => theirs.createBranchedSession(pair.refId(target)));
  if (ours.getSessionFile() !== before[0]) {
    pair.files.push([ours.getSessionFile()!, theirs.getSessionFile()]);
    assert.equal(ours.getHeader().parentSession, before[0]);
    assert.equal(theirs.getHeader().parentSession, before[1]);
  }
  return `createBranchedSession ${target}`;
}

/** Everything observable must agree; called after the script. */
function compareAll(pair: Pair): void {
  const { ours, ref: theirs, toOurs } = pair;
  pair.sync();
  assert.deepEqual(ours.getEntries().map((e) => entryJson(e)), theirs.getEntries().map((e: Any) => entryJson(e, toOurs)), "entries");
  assert.deepEqual(treeShape(ours.getTree()), treeShape(theirs.getTree(), toOurs), "tree");
  assert.equal(ours.getSessionName(), theirs.getSessionName(), "session name");
  for (const entry of ours.getEntries()) {
    assert.equal(ours.getLabel(entry.id), theirs.getLabel(pair.refId(entry.id)), `label of ${entry.id}`);
    assert.deepEqual(ours.getChildren(entry.id).map((e) => e.id), theirs.getChildren(pair.refId(entry.id)).map((e: Any) => toOurs.get(e.id)), "children");
  }
  const leaf = ours.getLeafId();
  const ourEntries = ours.getEntries();
  for (const entry of ourEntries) {
    ours.branch(entry.id);
    theirs.branch(pair.refId(entry.id));
    assert.equal(contextJson(ours.buildSessionContext()), contextJson(theirs.buildSessionContext(), toOurs), `context at ${entry.id}`);
  }
  if (leaf === null) {
    ours.resetLeaf();
    theirs.resetLeaf();
  } else {
    ours.branch(leaf);
    theirs.branch(pair.refId(leaf));
  }
  for (const [ourFile, refFile] of pair.files) {
    assert.deepEqual(fileLines(ourFile), fileLines(refFile, toOurs), `file ${ourFile}`);
  }
}

/** Our files, read by the reference's own loader, give the contexts we build. */
async function compareReadBack(pair: Pair): Promise<void> {
  const file = pair.ours.getSessionFile()!;
  const loaded: Any[] = ref.loadEntriesFromFile(file);
  if (loaded.length === 0) return; // not written yet: no conversation
  const entries = loaded.filter((e) => e.type !== "session");
  const reopened = await SessionManager.open(file, undefined, { fs: nodeFileSystem });
  assert.deepEqual(reopened.getEntries(), pair.ours.getEntries(), "read back");
  for (const entry of entries as SessionEntry[]) {
    reopened.branch(entry.id);
    assert.equal(contextJson(reopened.buildSessionContext()), contextJson(ref.buildSessionContext(entries, entry.id)), `reloaded context at ${entry.id}`);
  }
}

test("SessionManager agrees with pi 1.6.0 over random scripts", { skip, timeout: 240_000 }, async () => {
  let ops = 0;
  let branched = 0;
  for (let seed = 1; seed <= SEEDS; seed++) {
    const rand = mulberry32(seed);
    const dir = join(work, `seed-${seed}`);
    const ours = SessionManager.create("/work/project", join(dir, "ours"), { fs: nodeFileSystem });
    const pair = new Pair(ours, ref.SessionManager.create("/work/project", join(dir, "ref")));
    const log: string[] = [];
    try {
      for (let n = 0; n < OPS; n++) {
        const op = await step(pair, rand, n);
        log.push(op);
        if (op.startsWith("createBranchedSession")) branched++;
        pair.sync();
        assert.equal(ours.getLeafId(), pair.toOurs.get(pair.ref.getLeafId()) ?? pair.ref.getLeafId(), "leaf");
        assert.equal(contextJson(ours.buildSessionContext()), contextJson(pair.ref.buildSessionContext(), pair.toOurs), "context at the leaf");
        ops++;
      }
      compareAll(pair);
      await compareReadBack(pair);
    } catch (error) {
      (error as Error).message = `seed ${seed}, after ${log.length} ops (${log.slice(-5).join("; ")}): ${(error as Error).message}`;
      throw error;
    }
  }
  assert.equal(ops, SEEDS * OPS);
  assert.ok(branched > SEEDS / 2, `the scripts branched sessions ${branched} times`);
});
