/**
 * Differential test against pi 1.6.0: a corpus written by the reference's own SessionManager is read
 * by both sides; entries, every leaf's context and LLM messages, the tree, labels, names and listings must agree.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import process from "node:process";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { buildSessionContext, convertToLlm, parseSession, SessionTree } from "../../src/core/mod.ts";
import type { SessionEntry } from "../../src/core/mod.ts";
// The package's "exports" hides dist/, so the reference is imported by path.
import * as ref from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { convertToLlm as refConvertToLlm } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js";

const SESSION_COUNT = 520;
const SEED = 20260315;

type Json = Record<string, unknown>;
/** The reference's values are handled as plain JSON; its own types would add nothing here. */
type Any = any;

const work = mkdtempSync(join(tmpdir(), "pi-session-diff-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const copies = join(work, "copies");
mkdirSync(copies);
const files = await generateSessions({ dir: agentDir, count: SESSION_COUNT, seed: SEED });

// The listing is built separately; until it exists, its comparison is skipped. Every await
// stays above the first test(): node:test may run `after` before later-registered tests.
let listing: Any;
let listingSkip: string | false = false;
try {
  listing = {
    ...(await import("../../src/session/list-sessions.ts")),
    ...(await import("../../src/io/mod.ts")),
  };
} catch (error) {
  listingSkip = `listing not built yet (${(error as Error).message.split("\n")[0]})`;
}

/** Distinct mismatches, keyed by check and generalised value path, with one example of each. */
class MismatchLog {
  #byKey = new Map<string, { count: number; example: string }>();

  add(check: string, where: string, diff: Diff, file?: string): void {
    const key = `${check} at ${diff.path.replace(/\[\d+\]/g, "[]").replace(/\([^)]*\)/g, "()")}`;
    const seen = this.#byKey.get(key);
    if (seen) return void seen.count++;
    const show = (v: unknown) => (v === undefined ? "undefined" : JSON.stringify(v)?.slice(0, 300));
    const source = file ? `${basename(file)} (${shapeOf(file)}) ` : "";
    this.#byKey.set(key, { count: 1, example: `${source}${where}: ${diff.path || "(root)"} ours=${show(diff.ours)} ref=${show(diff.ref)}` });
  }

  get size(): number {
    return this.#byKey.size;
  }

  toString(): string {
    return [...this.#byKey].map(([key, { count, example }]) => `- ${key} (${count}x)\n    ${example}`).join("\n");
  }
}

interface Diff {
  path: string;
  ours: unknown;
  ref: unknown;
}

/** Object pairs already found deep-equal: contexts of nearby leaves share most message objects. */
const equalPairs = new WeakMap<object, WeakSet<object>>();

/** The first difference under strict deep equality (same keys, undefined-valued keys included), or undefined. */
function firstDiff(ours: unknown, theirs: unknown, path = ""): Diff | undefined {
  if (Object.is(ours, theirs)) return undefined;
  if (typeof ours !== "object" || typeof theirs !== "object" || ours === null || theirs === null) {
    return { path, ours, ref: theirs };
  }
  if (equalPairs.get(ours)?.has(theirs)) return undefined;
  if (Array.isArray(ours) !== Array.isArray(theirs) || Object.getPrototypeOf(ours) !== Object.getPrototypeOf(theirs)) {
    return { path, ours, ref: theirs };
  }
  const a = ours as Json;
  const b = theirs as Json;
  const keys = Object.keys(a);
  const theirKeys = Object.keys(b);
  if (Array.isArray(a) && a.length !== (b as unknown as unknown[]).length) {
    return { path: `${path}.length`, ours: a.length, ref: (b as unknown as unknown[]).length };
  }
  for (const key of theirKeys) {
    if (!Object.hasOwn(a, key)) return { path: `${path}.${key}`, ours: "(no key)", ref: b[key] };
  }
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return { path: `${path}.${key}`, ours: a[key], ref: "(no key)" };
    const diff = firstDiff(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`);
    if (diff) return diff;
  }
  let set = equalPairs.get(ours);
  if (!set) equalPairs.set(ours, (set = new WeakSet()));
  set.add(theirs);
  return undefined;
}

function shapeOf(file: string): string {
  const text = readFileSync(file, "utf8");
  const header = JSON.parse(text.slice(0, text.indexOf("\n")));
  const parts = [`v${header.version ?? 1}`];
  if (text.includes("\r\n")) parts.push("crlf");
  if (!text.endsWith("\n")) parts.push("no final newline");
  if (header.parentSession) parts.push("fork");
  return parts.join(", ");
}

const ID_KEYS = new Set(["id", "parentId", "firstKeptEntryId", "targetId", "fromId"]);

/** Rewrites the reference's entry ids into ours (v1 files get random ids there, derived ones here). */
function remapIds(value: unknown, ids: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => remapIds(v, ids));
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = ID_KEYS.has(key) && typeof v === "string" ? (ids.get(v) ?? v) : remapIds(v, ids);
  }
  return out;
}

/** Reference id -> our id, by position; null when both sides use the same ids. */
function positionalIds(refEntries: Json[], ours: SessionEntry[]): Map<string, string> | null {
  const ids = new Map<string, string>();
  let same = true;
  refEntries.forEach((entry, i) => {
    ids.set(entry.id as string, ours[i]?.id);
    if (entry.id !== ours[i]?.id) same = false;
  });
  return same ? null : ids;
}

function treeShape(nodes: readonly Any[], mapId: (id: string) => string = (id) => id): unknown[] {
  return nodes.map((node) => ({
    id: mapId(node.entry.id),
    label: node.label,
    labelTimestamp: node.labelTimestamp,
    children: treeShape(node.children, mapId),
  }));
}

let copyCount = 0;
function copyOf(file: string): string {
  const copy = join(copies, `${copyCount++}.jsonl`);
  copyFileSync(file, copy);
  return copy;
}

// Bun stops a test after 5 s by default; a loaded 2-core machine needs longer.
const TIMEOUT = 120_000;

test("differential: pi-session reads the reference's sessions as pi 1.6.0 does", { timeout: TIMEOUT }, () => {
  const log = new MismatchLog();
  const notes = new MismatchLog();
  let sessions = 0;
  let leaves = 0;
  let contextsEqual = 0;
  const started = Date.now();
  for (const file of files) {
    sessions++;
    const ours = parseSession(readFileSync(file));
    // The reference may append a newline to what it reads, and open() rewrites legacy files.
    const loaded = ref.loadEntriesFromFile(copyOf(file)) as unknown as Json[];
    ref.migrateSessionEntries(loaded as Any);
    const [refHeader, ...refEntries] = loaded;

    const { version: _a, ...ourHeader } = (ours.header ?? {}) as Json;
    const { version: _b, ...theirHeader } = refHeader;
    const headerDiff = firstDiff(ourHeader, theirHeader);
    if (headerDiff) log.add("header", "header", headerDiff, file);

    if (ours.entries.length !== refEntries.length) {
      log.add("entry count", "entries", { path: ".length", ours: ours.entries.length, ref: refEntries.length }, file);
      continue;
    }
    const ids = positionalIds(refEntries, ours.entries);
    const toOurs = (value: unknown) => (ids ? remapIds(value, ids) : value);
    const toRef = new Map<string, string>();
    for (const [refId, ourId] of ids ?? []) toRef.set(ourId, refId);

    const theirEntries = toOurs(refEntries);
    const entriesDiff = firstDiff(ours.entries, theirEntries);
    if (entriesDiff) {
      // Entries are file data: a key holding undefined (pi's v1 migration leaves
      // `firstKeptEntryId: undefined` for an index naming a later entry) never reaches a file.
      const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));
      if (firstDiff(asJson(ours.entries), asJson(theirEntries))) log.add("entries", "entries", entriesDiff, file);
      else notes.add("entries (in memory only)", "entries", entriesDiff, file);
    }

    const refById = new Map<string, Json>();
    for (const entry of refEntries) refById.set(entry.id as string, entry);
    const leafIds: (string | null | undefined)[] = [...ours.entries.map((e) => e.id), null, undefined];
    for (const leaf of leafIds) {
      leaves++;
      const refLeaf = typeof leaf === "string" ? (toRef.get(leaf) ?? leaf) : leaf;
      const mine = buildSessionContext(ours.entries, leaf);
      const theirs = toOurs(ref.buildSessionContext(refEntries as Any, refLeaf, refById as Any)) as Any;
      const where = `leaf ${leaf === undefined ? "undefined" : leaf}`;
      const contextDiff = firstDiff(mine, theirs, "context");
      if (contextDiff) log.add("buildSessionContext", where, contextDiff, file);
      const llmDiff = firstDiff(convertToLlm(mine.messages), refConvertToLlm(theirs.messages), "llm");
      if (llmDiff) log.add("convertToLlm", where, llmDiff, file);
      if (!contextDiff && !llmDiff) contextsEqual++;
    }

    const manager: Any = ref.SessionManager.open(copyOf(file));
    const managerIds = positionalIds(manager.getEntries(), ours.entries);
    const mapId = (id: string) => managerIds?.get(id) ?? id;
    const tree = new SessionTree(ours.entries);
    const treeDiff = firstDiff(treeShape(tree.getTree()), treeShape(manager.getTree(), mapId), "tree");
    if (treeDiff) log.add("getTree", "tree", treeDiff, file);
    const managerEntries = manager.getEntries() as Json[];
    ours.entries.forEach((entry, i) => {
      const label = firstDiff(tree.getLabel(entry.id), manager.getLabel(managerEntries[i]?.id), `getLabel(${entry.id})`);
      if (label) log.add("getLabel", `entry ${entry.id}`, label, file);
    });
    const name = firstDiff(tree.sessionName, manager.getSessionName(), "sessionName");
    if (name) log.add("sessionName", "session", name, file);
    const leafId = manager.getLeafId();
    const leafDiff = firstDiff(tree.leafId, leafId === null ? null : mapId(leafId), "leafId");
    if (leafDiff) log.add("leafId", "session", leafDiff, file);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`differential: ${sessions} sessions, ${leaves} leaves, ${contextsEqual} contexts equal (${seconds} s)`);
  if (notes.size > 0) console.log(`differential: equal as JSON, not in memory:\n${notes}`);
  assert.ok(sessions >= 500, `only ${sessions} sessions were generated`);
  assert.equal(log.size, 0, `pi-session differs from pi 1.6.0:\n${log}`);
});

const INFO_FIELDS = ["id", "cwd", "name", "parentSessionPath", "messageCount", "firstMessage"];

function infoShape(info: Json): Json {
  const time = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === "string" ? Date.parse(v) : v);
  const out: Json = { created: time(info.created), modified: time(info.modified) };
  for (const field of INFO_FIELDS) out[field] = info[field];
  return out;
}

/** True when a user or assistant message has null content: the reference's listing then drops the file. */
function hasNullConversationContent(file: string): boolean {
  return readFileSync(file, "utf8").split("\n").some((line) => {
    const entry = line.includes('"content":null') ? JSON.parse(line) : undefined;
    return entry?.type === "message" && ["user", "assistant"].includes(entry.message?.role) && entry.message.content == null;
  });
}

/**
 * Compares two listings session by session and returns how many sessions only we list. The
 * reference drops a whole file when a user or assistant message has null content (its text
 * extraction throws); listing those is our improvement, any other extra is a mismatch.
 */
function compareListings(log: MismatchLog, check: string, mine: Json[], theirs: Json[]): number {
  const ours = new Map(mine.map((info) => [String(info.path), info]));
  for (const info of theirs) {
    const path = String(info.path);
    const match = ours.get(path);
    if (!match) log.add(check, "listing", { path: "session", ours: "(not listed)", ref: path }, path);
    else {
      const diff = firstDiff(infoShape(match), infoShape(info), check);
      if (diff) log.add(check, "listing", diff, path);
    }
    ours.delete(path);
  }
  for (const path of ours.keys()) {
    if (!hasNullConversationContent(path)) log.add(check, "listing", { path: "session", ours: path, ref: "(not listed)" }, path);
  }
  return ours.size;
}

test("differential: listings match the reference's SessionManager.listAll", { skip: listingSkip, timeout: TIMEOUT }, async () => {
  const log = new MismatchLog();
  const fs = listing.detectFileSystem();
  const projectDirs = [...new Set(files.map((f) => join(f, "..")))];
  let listed = 0;
  let onlyOurs = 0;
  for (const dir of projectDirs) {
    const theirs = await ref.SessionManager.listAll(dir);
    listed += theirs.length;
    onlyOurs += compareListings(log, "listSessions", await listing.listSessions(fs, dir), theirs as Any);
  }
  const previous = process.env.PI_CODING_AGENT_DIR;
  process.env.PI_CODING_AGENT_DIR = agentDir;
  try {
    const theirs = await ref.SessionManager.listAll();
    compareListings(log, "listAllSessions", await listing.listAllSessions(fs, { agentDir }), theirs as Any);
  } finally {
    if (previous === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = previous;
  }
  console.log(
    `differential listing: ${projectDirs.length} projects, ${listed} sessions compared, ${onlyOurs} more listed only by pi-session (the reference skips files with null message content)`,
  );
  assert.equal(log.size, 0, `pi-session's listing differs from pi 1.6.0:\n${log}`);
});
