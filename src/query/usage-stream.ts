/**
 * Every session's usage, handed on one session at a time in attribution order (parents before
 * forks, oldest first), for `stats`: copies are recognised across projects, so every project's
 * sessions take part. From a SQLite catalog the sessions are put in order by their headers alone,
 * then their records are loaded a slice at a time and dropped, so memory holds a path and a header
 * time per session, not its usage. Anywhere else (a file catalog, a store that cannot be saved, a
 * file that cannot be read, a record that no longer loads) a refresh holds them all, as before.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import { decodeUsage, rowCount, UsageScratch } from "../core/digest/usage-state.ts";
import { type AttributionKey, attributionOrder, type UsageSession } from "../core/stats/attribution.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { AnswerStore, CatalogStore, SectionKey, StoredHead } from "../catalog/store.ts";
import { storedState } from "../catalog/stored-state.ts";
import { PassCollector } from "../catalog/stamps.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { QueryEnv } from "./env.ts";
import { answerFromBase, BaseRecorder, type ResumableAnswer } from "./usage-base.ts";
import { type ProgressOptions, type SessionScope, sessionScope, withCatalog, withProgress } from "./scope.ts";
import { usageSessionOfState, usageSessionsOf } from "./usage-sessions.ts";

/** Records loaded per query: each slice is dropped before the next is loaded. */
const SLICE = 500;

/**
 * Usage rows handed on between two full collections of garbage: what loading them leaves (their
 * states as text, parsed, and unpacked) is about 100 bytes a row, what loading a slice leaves
 * about 1 MB besides, and Bun's collector let it pile up (a warm `stats` of 25,000 sessions
 * peaked at 155 MB without collections, 120 MB with a full one every 20,000 rows, 114 MB with a
 * young one after every other slice too: measured by hand, the same CPU time within the noise).
 */
const COLLECT_EVERY_ROWS = 20_000;

/**
 * A state this long (characters of its JSON) or longer is collected as soon as it is added, with
 * what reading it left: the six giant sessions of the 25,000-session corpus come in the first
 * slice, and their states (0.5 to 2.8 MB each, read, parsed and unpacked) made the walk's peak
 * (by hand, warm, quick check: 110 to 115 MB without, 104 to 106 MB with).
 */
const BIG_STATE = 256 * 1024;

/** What a store must do for the sessions to be read a slice at a time. */
type SlicingStore = CatalogStore & Required<Pick<CatalogStore, "loadHeads" | "loadRows" | "loadPaths" | "loadStamps">>;

function slicing(store: CatalogStore | null): store is SlicingStore {
  return Boolean(store?.loadHeads && store.loadRows && store.loadPaths && store.loadStamps);
}

/** A session to read: where its record is, and what puts it in attribution order. */
interface Place extends AttributionKey {
  row: number;
  file: number;
}

/**
 * An answer made from every session's usage, which the store may keep (sqlite-answers.ts) while
 * no usage record changes: `stats` asks the same report again.
 */
export interface KeptAnswer {
  /** What names the answer (besides the records): see stats-answer.ts. */
  key: string;
  /** Where the answer can be kept with what it was made from, and go on from that (usage-base.ts). */
  base?: ResumableAnswer;
  /** The answer kept from an earlier walk over the same records: true when it reads, and no session is handed on. */
  found(body: string): boolean;
  /** The answer once every session went by, to keep; undefined when it is not to be kept. */
  made(): string | undefined;
}

/**
 * Hands every session's usage to a visitor, in attribution order, every session once. `start`
 * makes the visitor; it is called again (and the earlier one must be dropped) if reading from
 * the store has to give way to a full refresh part way through. A session's usage numbers are
 * good only until the visitor returns (the next session's take their place). Returns where the
 * sessions came from: the store a slice at a time, or a refresh holding them all; or, with
 * `kept`, "kept" when the store had the answer (`kept.found` was called, no visitor made).
 */
export function eachUsageSession(env: QueryEnv, start: () => (session: UsageSession, file?: number) => void, kept?: KeptAnswer): Promise<"store" | "refresh" | "kept"> {
  return withCatalog(env, async (catalog) => {
    const every = await sessionScope(env, true, catalog);
    const [options, done] = withProgress(env, "Reading usage", { listedDirs: every.dirs, listing: every.listing });
    try {
      const from = await fromStore(catalog, every, options, start, kept);
      if (from) return from;
      const view = await catalog.refresh([usageDigest], every.files, options);
      const visit = start();
      for (const session of attributionOrder(usageSessionsOf(view.records(usageDigest)))) visit(session);
      return "refresh";
    } finally {
      done();
    }
  });
}

/**
 * The sessions from the store, once it holds a current record of every file: false (nothing
 * handed on that counts) when it cannot.
 */
async function fromStore(
  catalog: Catalog,
  every: SessionScope,
  options: ProgressOptions,
  start: () => (session: UsageSession, file?: number) => void,
  kept: KeptAnswer | undefined,
): Promise<"store" | "kept" | false> {
  const store = catalog.store;
  if (!slicing(store)) return false;
  const { listedDirs, listing } = options;
  if (!(await catalog.unchanged(usageDigest, listing ? undefined : every.files, { listedDirs, listing, readChanged: true }))) {
    // Only what changed is read, and saved; no record is held (`keep: false`).
    const view = await catalog.refresh([usageDigest], every.files, { ...options, onRecords: undefined, keep: false });
    if (view.counts.unreadable > 0 || catalog.saveProblem !== undefined) return false;
  }
  // The records are now those of the files: an answer made from them since they last changed holds.
  const answers = kept ? store.answers : undefined;
  const generation = keptGeneration(answers);
  const body = generation === undefined ? undefined : keptBody(answers!, kept!.key, generation);
  if (body !== undefined && kept!.found(body)) return "kept";
  // Else from what an earlier answer was made from, where only a few sessions changed since.
  if (kept?.base && answers && generation !== undefined) {
    const made = await answerFromBase(store, answers, kept.key, generation, every, kept.base).catch(() => undefined);
    if (made !== undefined && kept.found(made)) return "kept";
  }
  const recordBase = kept?.base !== undefined && answers?.saveBase !== undefined;
  // What checking the files left (a stamp, and in a full check a stat, per file), and then what
  // putting them in order left, is collected before the next step adds its own.
  collectGarbage();
  let noted = 0;
  const order = await sessionOrder(store, every, { ...options, onBadHeader: (path, why) => (noted++, options.onBadHeader(path, why)) });
  if (!order) return false;
  const recorder = recordBase ? new BaseRecorder(order.dangling) : undefined;
  collectGarbage();
  // Rows loaded in the current slice.
  let loaded = 0;
  const pacer = new GarbagePacer({ everyItems: 1, itemsYoung: true, everyAmount: COLLECT_EVERY_ROWS });
  // Each session's numbers in one array, reused for the next: the visitor is done with them.
  const scratch = new UsageScratch();
  const section: SectionKey = { name: usageDigest.name, version: usageDigest.version, initial: usageDigest.initial, decode: (data) => decodeUsage(data, scratch) };
  const visit = start();
  // A state read, and handed on; false when it no longer loads. Its own function, so that
  // nothing of the state is left on the loop's stack for a collection after a big one.
  const add = (path: string, text: string, file: number): boolean => {
    const state = storedState(section, text);
    if (!state) return false;
    const session = usageSessionOfState(path, state);
    if (!session) {
      scratch.done();
      return true;
    }
    visit(session, file);
    recorder?.add(session, file);
    loaded += rowCount(session.usage);
    scratch.done();
    return true;
  };
  for (let at = 0; at < order.rows.length; at += SLICE) {
    const slice = order.rows.slice(at, at + SLICE);
    let records;
    try {
      records = await store.loadRows(usageDigest, slice);
    } catch {
      return false;
    }
    for (const [k, row] of slice.entries()) {
      const path = order.paths[at + k];
      const record = records.get(row);
      // Replaced since (another process saved it), or no longer sound: the refresh reads the file.
      if (record?.file !== order.files[at + k]) return false;
      records.delete(row);
      if (!add(path, record.text, record.file)) return false;
      if (record.text.length >= BIG_STATE) collectGarbage();
    }
    // A young collection after each slice, a full one instead once COLLECT_EVERY_ROWS rows went by.
    pacer.item(loaded);
    loaded = 0;
  }
  // Kept where nothing was noted on the way: an answer read back would not note it again.
  if (answers && generation !== undefined && noted === 0) keep(answers, kept!, generation, recorder);
  return "store";
}

/** The store's count of changes to the usage records, undefined when it cannot say. */
function keptGeneration(answers: AnswerStore | undefined): number | undefined {
  try {
    return answers?.generation(usageDigest);
  } catch {
    return undefined;
  }
}

/** The answer kept under `key` at `generation`, undefined when there is none or it cannot be read. */
function keptBody(answers: AnswerStore, key: string, generation: number): string | undefined {
  try {
    return answers.load(usageDigest, key, generation);
  } catch {
    return undefined;
  }
}

/** Keeps the answer made; one that cannot be kept (a store that cannot be written) is just not. */
function keep(answers: AnswerStore, kept: KeptAnswer, generation: number, recorder: BaseRecorder | undefined): void {
  const body = kept.made();
  if (body === undefined) return;
  try {
    const base = recorder && kept.base ? recorder.bytes(kept.base.save()) : undefined;
    if (base) answers.saveBase?.(usageDigest, kept.key, generation, base);
    answers.save(usageDigest, kept.key, generation, body);
  } catch {
    // The next run makes it again.
  }
}

/**
 * The scope's own string for a path of one of its files, or undefined for a path out of scope.
 * Where the scope's paths are made (every file of a scope without a listing, a full check's), a
 * session keeps that string rather than its head's copy (25,000 kept through the walk); where
 * they are not, the listing tells them by their folders' names, and the head's path serves: a map
 * of every path would make the listing's 25,000 joined strings for it (12 MB at 25,000 sessions).
 */
function inScope(scope: SessionScope): { of: (path: string) => string | undefined; done: () => void } {
  const made = scope.listing ? scope.listing.madeFiles() : scope.files;
  if (made) {
    const own = new Map<string, string>();
    for (const path of made) own.set(path, path);
    // Emptied once done: Bun's engine kept the map alive through the walk from the code that
    // had looked paths up in it (a heap snapshot: 3.4 MB at 25,000 sessions).
    return { of: (path) => own.get(path), done: () => own.clear() };
  }
  // A file's path is its folder's stem (ending in "/") and its name (never holding one).
  const names = new Map<string, Set<string>>();
  for (const folder of scope.listing!.folders) {
    const { stem, names: inFolder } = scope.listing!.namesIn(folder);
    const known = names.get(stem) ?? names.set(stem, new Set()).get(stem)!;
    for (const name of inFolder) known.add(name);
  }
  const of = (path: string) => {
    const at = path.lastIndexOf("/") + 1;
    return names.get(path.slice(0, at))?.has(path.slice(at)) ? path : undefined;
  };
  return { of, done: () => names.clear() };
}

/**
 * The sessions among the scope's files in attribution order, as the store's rows and their
 * paths, from the headers the store holds (and each skipped file's note); undefined when the
 * store cannot give them.
 */
async function sessionOrder(
  store: SlicingStore,
  scope: SessionScope,
  options: ProgressOptions,
): Promise<{ rows: number[]; files: Float64Array; paths: string[]; dangling: Set<string> } | undefined> {
  const asked = inScope(scope);
  // Each head makes the session's place and is dropped: where the store hands them one at a
  // time, the rows of every head and the heads themselves are never held together.
  const places: Place[] = [];
  const collector = new PassCollector();
  const onHead = (head: StoredHead) => {
    collector.item();
    const path = asked.of(head.path);
    if (path === undefined) return;
    if (head.badHeader !== undefined) options.onBadHeader(head.path, head.badHeader);
    if (!head.session) return;
    places.push({ path, row: head.row, file: head.file, created: head.created ?? "", parentSession: head.parentSession });
  };
  try {
    if (store.eachHead) await store.eachHead(usageDigest, onHead);
    else for (const head of await store.loadHeads(usageDigest)) onHead(head);
  } catch {
    return undefined;
  } finally {
    asked.done();
  }
  collector.end();
  // Held while the sessions are read: two numbers and a shared path per session.
  const dangling = new Set<string>();
  const order = attributionOrder(places, dangling);
  const held = { rows: order.map((place) => place.row), files: Float64Array.from(order, (place) => place.file), paths: order.map((place) => place.path), dangling };
  // Emptied, not just dropped: Bun's engine kept an array of 25,000 places alive from the code
  // that had made it (a heap snapshot after a full collection), with every head and its strings.
  for (const array of [places, order]) array.length = 0;
  return held;
}
