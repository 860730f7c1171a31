/**
 * Differential test of `pi-session/compat` against pi 1.6.0's SessionManager, call by call:
 * thousands of random scripts (create, open and reopen, appends of every kind, labels, names,
 * branch, branchWithSummary, resetLeaf, createBranchedSession, forkFrom, setSessionFile,
 * newSession, findById, list) run synchronously on both, in twin temp dirs. After every call the
 * return values, thrown errors, leaf and context must agree; after each script every getter and
 * every file written. Entry ids are paired by position, times left out, paths mapped between
 * the twin dirs.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { SessionManager } from "../../src/compat/mod.ts";
import type { SessionEntry } from "../../src/core/format/types.ts";
import { usage } from "../session/_fixtures.ts";
import { type Any, contextJson, entryJson, fileLines, loadReference, makeMessage, mulberry32, treeShape } from "../session/_differential.ts";

const SEEDS = 1000;
const OPS = 20;

const { ref, skip } = await loadReference();

const work = mkdtempSync(join(tmpdir(), "pi-session-compat-diff-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** One script's twin managers, the id maps between them, and every file pair seen. */
class Twin {
  ours: SessionManager;
  theirs: Any;
  readonly toRef = new Map<string, string>();
  readonly toOurs = new Map<string, string>();
  readonly files: [string, string][] = [];
  readonly ourDir: string;
  readonly refDir: string;

  constructor(dir: string) {
    this.ourDir = join(dir, "ours");
    this.refDir = join(dir, "ref");
    this.ours = SessionManager.create("/work/project", this.ourDir);
    this.theirs = ref.SessionManager.create("/work/project", this.refDir);
    this.track();
  }

  /** Remembers the current files as a pair. */
  track(): void {
    const pair: [string, string] = [this.ours.getSessionFile()!, this.theirs.getSessionFile()];
    if (pair[0] && !this.files.some(([a]) => a === pair[0])) this.files.push(pair);
  }

  /** Pairs entries by position; both sides must hold the same number. */
  sync(): void {
    const ours = this.ours.getEntries();
    const theirs: Any[] = this.theirs.getEntries();
    assert.equal(ours.length, theirs.length, "entry count");
    ours.forEach((entry, i) => {
      this.toRef.set(entry.id, theirs[i].id);
      this.toOurs.set(theirs[i].id, entry.id);
    });
  }

  refId(id: string | null): string | null {
    return id === null ? null : this.toRef.get(id) ?? id;
  }

  /** A reference path or message in our terms: the twin dir and the paired ids replaced. */
  mapRef(text: string): string {
    let out = text.replaceAll(this.refDir, this.ourDir);
    for (const [ourFile, refFile] of this.files) out = out.replaceAll(refFile.replace(this.refDir, this.ourDir), ourFile);
    for (const [refId, ourId] of this.toOurs) out = out.replaceAll(refId, ourId);
    return out;
  }

  /** The reference's matching file for one of ours (the same name, once paired). */
  refFile(ourFile: string): string {
    return this.files.find(([a]) => a === ourFile)?.[1] ?? ourFile.replace(this.ourDir, this.refDir);
  }
}

/** Runs a call on both sides; results (as given by `view`) and error messages must agree. */
function both<T>(twin: Twin, what: string, ours: () => T, theirs: () => Any, view: (value: Any, side: "ours" | "ref") => unknown = (v) => v): void {
  let ourResult: unknown;
  let refResult: unknown;
  let ourError: string | undefined;
  let refError: string | undefined;
  try {
    ourResult = view(ours(), "ours");
  } catch (error) {
    ourError = (error as Error).message;
  }
  try {
    refResult = view(theirs(), "ref");
  } catch (error) {
    refError = twin.mapRef((error as Error).message);
  }
  assert.equal(ourError, refError, `${what}: errors differ`);
  if (ourError === undefined) assert.deepEqual(ourResult, refResult, `${what}: results differ`);
}

/** An appended id: the pairing is checked by `sync` afterwards, so only its kind is compared here. */
const idKind = (value: unknown) => typeof value === "string" && /^[0-9a-z]{8}$/.test(value) ? "id" : value;

function headerJson(twin: Twin, header: Any, side: "ours" | "ref"): string {
  const o = JSON.parse(JSON.stringify(header));
  delete o.id;
  delete o.timestamp;
  if (side === "ref" && typeof o.parentSession === "string") o.parentSession = twin.mapRef(o.parentSession);
  return JSON.stringify(o);
}

/** Session infos as comparable JSON. */
function infosJson(twin: Twin, infos: Any[], side: "ours" | "ref"): string[] {
  return infos.map((info) => JSON.stringify({
    path: side === "ref" ? twin.mapRef(info.path) : info.path,
    cwd: info.cwd,
    name: info.name,
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
    allMessagesText: info.allMessagesText,
    parentSessionPath: info.parentSessionPath === undefined ? undefined : side === "ref" ? twin.mapRef(info.parentSessionPath) : info.parentSessionPath,
  })).sort();
}

/** One random call on both sides; returns what it was, for the failure message. */
async function step(twin: Twin, rand: () => number, n: number): Promise<string> {
  const { ours, theirs } = twin;
  const entries = ours.getEntries();
  const any = () => entries.length > 0 && rand() < 0.93 ? entries[Math.floor(rand() * entries.length)].id : "nope0000";
  const onBranch = () => {
    const branch = ours.getBranch();
    return branch.length > 0 ? branch[Math.floor(rand() * branch.length)].id : undefined;
  };
  const roll = Math.floor(rand() * 100);
  if (roll < 30) {
    const message = makeMessage(rand, n);
    both(twin, "appendMessage", () => ours.appendMessage(message), () => theirs.appendMessage(message), idKind);
    return `message ${message.role}`;
  }
  if (roll < 33) {
    const level = ["off", "low", "high"][n % 3];
    both(twin, "thinking", () => ours.appendThinkingLevelChange(level), () => theirs.appendThinkingLevelChange(level), idKind);
    return "thinking";
  }
  if (roll < 36) {
    both(twin, "model", () => ours.appendModelChange("p", `m${n}`), () => theirs.appendModelChange("p", `m${n}`), idKind);
    return "model";
  }
  if (roll < 41) {
    const first = rand() < 0.3 ? null : rand() < 0.8 ? onBranch() ?? null : any();
    const details = rand() < 0.5 ? { readFiles: ["a"], modifiedFiles: [] } : undefined;
    const hook = rand() < 0.3 ? true : undefined;
    both(twin, "compaction", () => ours.appendCompaction(`sum ${n}`, first, 100 + n, details, hook, usage),
      () => theirs.appendCompaction(`sum ${n}`, twin.refId(first), 100 + n, details, hook, usage), idKind);
    return `compaction ${first}`;
  }
  if (roll < 43) {
    both(twin, "custom", () => ours.appendCustomEntry("ext", { n }), () => theirs.appendCustomEntry("ext", { n }), idKind);
    return "custom";
  }
  if (roll < 46) {
    const content = rand() < 0.5 ? `cm ${n}` : [{ type: "text" as const, text: `cm ${n}` }];
    const display = rand() < 0.5;
    both(twin, "custom message", () => ours.appendCustomMessageEntry("ext", content, display, { n }), () => theirs.appendCustomMessageEntry("ext", content, display, { n }), idKind);
    return "custom message";
  }
  if (roll < 49) {
    const name = ["", "  ", `name ${n}`, `two\r\nlines ${n} `][Math.floor(rand() * 4)];
    both(twin, "session info", () => ours.appendSessionInfo(name), () => theirs.appendSessionInfo(name), idKind);
    return `name ${JSON.stringify(name)}`;
  }
  if (roll < 55) {
    const target = any();
    const label = [undefined, "", `label ${n}`, `label ${n}`][Math.floor(rand() * 4)];
    both(twin, "label", () => ours.appendLabelChange(target, label), () => theirs.appendLabelChange(twin.refId(target), label), idKind);
    return `label ${target} ${label}`;
  }
  if (roll < 57) {
    const note = rand() < 0.5 ? "warm" : undefined;
    both(twin, "usage", () => ours.appendUsage("cache_warm", "p", "m", usage, note), () => theirs.appendUsage("cache_warm", "p", "m", usage, note),
      (entry) => entryJson({ ...entry, id: "x", parentId: entry.parentId === null ? null : "p" }));
    return "usage";
  }
  if (roll < 62) {
    const target = rand() < 0.7 ? onBranch() ?? any() : any();
    const replacement = [null, { content: `edit ${n}` }, { content: [{ type: "text" as const, text: `e${n}` }] }, { bad: 1 }][Math.floor(rand() * 4)] as never;
    both(twin, "context edit", () => ours.appendContextEdit(target, replacement), () => theirs.appendContextEdit(twin.refId(target), replacement), idKind);
    return `context edit ${target}`;
  }
  if (roll < 68) {
    const target = any();
    both(twin, "branch", () => ours.branch(target), () => theirs.branch(twin.refId(target)));
    return `branch ${target}`;
  }
  if (roll < 70) {
    both(twin, "resetLeaf", () => ours.resetLeaf(), () => theirs.resetLeaf());
    return "resetLeaf";
  }
  if (roll < 74) {
    const target = rand() < 0.2 ? null : any();
    const hook = rand() < 0.5;
    both(twin, "branchWithSummary", () => ours.branchWithSummary(target, `left ${n}`, { n }, hook, usage),
      () => theirs.branchWithSummary(twin.refId(target), `left ${n}`, { n }, hook, usage), idKind);
    return `branchWithSummary ${target}`;
  }
  if (roll < 78) {
    const target = any();
    both(twin, "createBranchedSession", () => ours.createBranchedSession(target), () => theirs.createBranchedSession(twin.refId(target)),
      (path) => path === undefined ? "none" : "path");
    twin.track();
    return `createBranchedSession ${target}`;
  }
  if (roll < 83) {
    // Reopen the current file (or, now and then, with a cwd override).
    const override = rand() < 0.3 ? "/work/elsewhere" : undefined;
    const [ourFile, refFile] = [ours.getSessionFile()!, theirs.getSessionFile()];
    both(twin, "open", () => (twin.ours = SessionManager.open(ourFile, undefined, override)), () => (twin.theirs = ref.SessionManager.open(refFile, undefined, override)), () => "opened");
    compareLazy(twin, rand);
    return `open ${override ?? ""}`;
  }
  if (roll < 86) {
    const [ourFile, refFile] = [ours.getSessionFile()!, theirs.getSessionFile()];
    both(twin, "forkFrom", () => (twin.ours = SessionManager.forkFrom(ourFile, "/work/other", twin.ourDir)),
      () => (twin.theirs = ref.SessionManager.forkFrom(refFile, "/work/other", twin.refDir)), () => "forked");
    twin.track();
    return "forkFrom";
  }
  if (roll < 89) {
    const [ourFile] = twin.files[Math.floor(rand() * twin.files.length)];
    const refFile = twin.refFile(ourFile);
    both(twin, "setSessionFile", () => ours.setSessionFile(ourFile), () => theirs.setSessionFile(refFile));
    return "setSessionFile";
  }
  if (roll < 91) {
    const id = [undefined, `custom-${n}`, "-bad"][Math.floor(rand() * 3)];
    both(twin, "newSession", () => ours.newSession(id === undefined ? undefined : { id }), () => theirs.newSession(id === undefined ? undefined : { id }), (path) => typeof path);
    twin.track();
    return `newSession ${id}`;
  }
  if (roll < 94) {
    const id = rand() < 0.8 ? ours.getSessionId() : "missing";
    const refId = id === "missing" ? id : theirs.getSessionId();
    both(twin, "findById", () => SessionManager.findById("/work/project", id, twin.ourDir), () => ref.SessionManager.findById("/work/project", refId, twin.refDir),
      (path) => path === undefined ? "none" : "found");
    return "findById";
  }
  if (roll < 97) {
    const cwd = rand() < 0.7 ? "/work/project" : "/work/other";
    const [a, b] = await Promise.all([SessionManager.list(cwd, twin.ourDir), ref.SessionManager.list(cwd, twin.refDir)]);
    assert.deepEqual(infosJson(twin, a, "ours"), infosJson(twin, b, "ref"), "list");
    return `list ${cwd}`;
  }
  const [a, b] = await Promise.all([SessionManager.listAll(twin.ourDir), ref.SessionManager.listAll(twin.refDir)]);
  assert.deepEqual(infosJson(twin, a, "ours"), infosJson(twin, b, "ref"), "listAll(dir)");
  return "listAll";
}

/**
 * What a just opened manager answers before anything reads all its entries (ours parses lines
 * only as asked: leaf, count, name, single entries, labels, the context, here or elsewhere).
 */
function compareLazy(twin: Twin, rand: () => number): void {
  const { ours, theirs, toOurs } = twin;
  const ourId = (id: string | null) => id === null ? null : toOurs.get(id) ?? id;
  assert.equal(ours.getLeafId(), ourId(theirs.getLeafId()), "opened: leaf");
  assert.equal(ours.getEntryCount(), theirs.getEntryCount(), "opened: getEntryCount");
  assert.equal(ours.getSessionName(), theirs.getSessionName(), "opened: session name");
  assert.equal(contextJson(ours.buildSessionContext()), contextJson(theirs.buildSessionContext(), toOurs), "opened: context at the leaf");
  const json = (entry: unknown, map?: Map<string, string>) => entry === undefined ? "none" : entryJson(entry, map);
  assert.equal(json(ours.getLeafEntry()), json(theirs.getLeafEntry(), toOurs), "opened: leaf entry");
  const refEntries: Any[] = theirs.getEntries();
  if (refEntries.length === 0) return;
  const elsewhere = refEntries[Math.floor(rand() * refEntries.length)].id;
  ours.branch(ourId(elsewhere)!);
  theirs.branch(elsewhere);
  assert.equal(contextJson(ours.buildSessionContext()), contextJson(theirs.buildSessionContext(), toOurs), "opened: context elsewhere");
  for (const entry of refEntries) {
    assert.equal(json(ours.getEntry(ourId(entry.id)!)), entryJson(entry, toOurs), "opened: getEntry");
    assert.equal(ours.getLabel(ourId(entry.id)!), theirs.getLabel(entry.id), "opened: label");
  }
  assert.equal(ours.getEntry("nope0000"), theirs.getEntry("nope0000") ?? undefined, "opened: unknown entry");
}

/** Everything a caller can read must agree. */
function compareAll(twin: Twin): void {
  const { ours, theirs, toOurs } = twin;
  twin.sync();
  assert.deepEqual(ours.getEntries().map((e) => entryJson(e)), theirs.getEntries().map((e: Any) => entryJson(e, toOurs)), "entries");
  assert.equal(ours.getEntryCount(), theirs.getEntryCount(), "getEntryCount");
  assert.equal(headerJson(twin, ours.getHeader(), "ours"), headerJson(twin, theirs.getHeader(), "ref"), "header");
  const folder = (path: string | undefined) => path?.replace(/\/[^/]*$/, "");
  assert.equal(folder(ours.getSessionFile()), folder(twin.mapRef(theirs.getSessionFile())), "session file folder");
  assert.equal(ours.getCwd(), theirs.getCwd(), "cwd");
  assert.equal(ours.getSessionDir(), twin.mapRef(theirs.getSessionDir()), "session dir");
  assert.equal(ours.usesDefaultSessionDir(), theirs.usesDefaultSessionDir(), "usesDefaultSessionDir");
  assert.equal(ours.isPersisted(), theirs.isPersisted(), "isPersisted");
  assert.deepEqual(treeShape(ours.getTree()), treeShape(theirs.getTree(), toOurs), "tree");
  assert.equal(ours.getSessionName(), theirs.getSessionName(), "session name");
  assert.equal(ours.getLeafEntry()?.id, toOurs.get(theirs.getLeafEntry()?.id) ?? theirs.getLeafEntry()?.id, "leaf entry");
  for (const entry of ours.getEntries()) {
    assert.equal(ours.getLabel(entry.id), theirs.getLabel(twin.refId(entry.id)), `label of ${entry.id}`);
    assert.deepEqual(ours.getChildren(entry.id).map((e) => e.id), theirs.getChildren(twin.refId(entry.id)).map((e: Any) => toOurs.get(e.id)), "children");
    assert.deepEqual(ours.getBranch(entry.id).map((e) => e.id), theirs.getBranch(twin.refId(entry.id)).map((e: Any) => toOurs.get(e.id)), "branch");
  }
  assert.deepEqual(ours.buildContextEntries().map((e) => e.id), theirs.buildContextEntries().map((e: Any) => toOurs.get(e.id)), "context entries");
  const leaf = ours.getLeafId();
  for (const entry of ours.getEntries()) {
    ours.branch(entry.id);
    theirs.branch(twin.refId(entry.id));
    assert.equal(contextJson(ours.buildSessionContext()), contextJson(theirs.buildSessionContext(), toOurs), `context at ${entry.id}`);
  }
  if (leaf === null) {
    ours.resetLeaf();
    theirs.resetLeaf();
  } else {
    ours.branch(leaf);
    theirs.branch(twin.refId(leaf));
  }
}

/** Every file either side wrote holds the same lines. */
function compareFiles(twin: Twin): number {
  let files = 0;
  for (const [ourFile, refFile] of twin.files) {
    const ours = fileLines(ourFile);
    const theirs = fileLines(refFile, twin.toOurs);
    if (ours === null && theirs === null) continue;
    assert.ok(ours !== null && theirs !== null, `${ourFile}: written on one side only`);
    // Ids of entries no longer in memory (an earlier file) are not paired: compare the shape.
    const shape = (lines: string[]) => lines.map((line) => line.replace(/"[0-9a-f]{8}"/g, '"id"'));
    assert.deepEqual(shape(ours), shape(theirs), `file ${ourFile}`);
    files++;
  }
  return files;
}

test("pi-session/compat's SessionManager agrees with pi 1.6.0 call by call over random scripts", { skip, timeout: 600_000 }, async () => {
  let calls = 0;
  let files = 0;
  const kinds = new Map<string, number>();
  for (let seed = 1; seed <= SEEDS; seed++) {
    const rand = mulberry32(seed);
    const twin = new Twin(join(work, `seed-${seed}`));
    const log: string[] = [];
    try {
      for (let n = 0; n < OPS; n++) {
        const op = await step(twin, rand, n);
        log.push(op);
        const kind = op.split(" ")[0];
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        twin.sync();
        assert.equal(twin.ours.getLeafId(), twin.toOurs.get(twin.theirs.getLeafId()) ?? twin.theirs.getLeafId(), "leaf");
        assert.equal(contextJson(twin.ours.buildSessionContext()), contextJson(twin.theirs.buildSessionContext(), twin.toOurs), "context at the leaf");
        calls++;
      }
      compareAll(twin);
      files += compareFiles(twin);
      rmSync(join(work, `seed-${seed}`), { recursive: true, force: true });
    } catch (error) {
      (error as Error).message = `seed ${seed}, after ${log.length} calls (${log.slice(-6).join("; ")}): ${(error as Error).message}`;
      throw error;
    }
  }
  assert.equal(calls, SEEDS * OPS);
  console.log(`compat differential: ${SEEDS} scripts, ${calls} calls, ${files} files compared; calls by kind: ${JSON.stringify(Object.fromEntries(kinds))}`);
  for (const kind of ["open", "forkFrom", "createBranchedSession", "setSessionFile", "findById", "list", "listAll", "newSession"]) {
    assert.ok((kinds.get(kind) ?? 0) > SEEDS / 10, `${kind} ran only ${kinds.get(kind) ?? 0} times`);
  }
});
