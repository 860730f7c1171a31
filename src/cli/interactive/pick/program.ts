/**
 * The picker's edges: loading a scope's sessions through the catalog progressively (rows
 * appear as files are read), scanning their message texts for a query a slice at a time (the
 * texts of every session are never held), and performing renames and deletes with the same
 * helpers `name` and `delete` use.
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";
import { listingKinds, recordsInfo } from "../../../catalog/list-cached.ts";
import { listingDigest, type MessageTexts, messageTextsDigest } from "../../../core/digest/listing-digest.ts";
import { type CatalogRecord, recordState } from "../../../catalog/store.ts";
import { textPasses, textTestKey, textTestsOf } from "../../../query/resume-search.ts";
import { readSessionInfo, sortByModified } from "../../../session/list-sessions.ts";
import { scopePlaces, sessionScope } from "../../../query/scope.ts";
import { type Catalog, inDirs } from "../../../catalog/catalog.ts";
import { CliContext } from "../../context.ts";
import { describeError } from "../../errors.ts";
import { openForAppend, writing } from "../../session-write.ts";
import { moveToTrash } from "../../trash.ts";
import type { Apply, PromptProgram } from "../prompt.ts";
import { collectGarbage } from "../../../io/collect-garbage.ts";
import { textsCollector, WALK_COLLECT_EVERY } from "../../../query/walk-garbage.ts";
import { LeanInfos } from "./lean-info.ts";
import { writeFirstPage } from "./first-page.ts";
import { renderPick } from "./render.ts";
import { effectFailed, initialPickState, type PickEffect, type PickState, reducePick, type Scope, sessionDeleted, sessionRenamed, sessionsLoaded, textsScanned } from "./state.ts";

/** How often (ms) partial lists are published while loading. */
const PUBLISH_EVERY = 80;
/** While loading (files read, stored records loaded), keys are read at least this often (ms). */
const KEYS_EVERY = 30;
/**
 * Lists at least this long are followed by a full garbage collection when published: each
 * publish leaves the list and rows it replaced behind (25,000 of each at the end of a load),
 * and Bun let them pile up (`pick --all` over 25,000 sessions peaked at 131 MB without them,
 * 109 to 111 MB with them and the lean rows; a collection every 1,000 sessions loaded, as other
 * walks make, cost 1.4 to 1.9 s more CPU for the same peak: a publish's collection counts in
 * its time, which paces the next publish).
 */
const COLLECT_FROM = WALK_COLLECT_EVERY;
/** A scan of the texts starts once the query has stayed the same this long (ms): typing a word scans once. */
const SCAN_AFTER = 150;

/**
 * `publish` made to run at most every `PUBLISH_EVERY` ms, and for at most a fifth of the time:
 * a publish sorts and threads every row so far (tens of ms for 25,000 sessions on a busy
 * machine), and one started as soon as the last ended would leave the loading no time at all.
 */
function throttled(publish: () => void): () => void {
  let next = -Infinity;
  return () => {
    const started = performance.now();
    if (started < next) return;
    publish();
    const ended = performance.now();
    next = ended + Math.max(PUBLISH_EVERY, 4 * (ended - started));
  };
}

function message(error: unknown): string {
  return describeError(error).lines[0].replace(/^pi-session: /, "");
}

/**
 * The sessions of `scope` as the catalog knew them last time (no file is read): what the
 * picker shows at once, before its refresh corrects them.
 */
export async function knownSessions(ctx: CliContext, catalog: Catalog, scope: Scope): Promise<SessionInfo[]> {
  const places = await scopePlaces(ctx, scope === "all");
  const options = { cwdFilter: places.cwdFilter, processCwd: ctx.deps.storage.processCwd };
  const inScope = inDirs(places.dirs);
  const known: SessionInfo[] = [];
  // Straight from the store, not kept by the catalog: the load after it then holds no section whole.
  const stored = await catalog.store?.load(listingDigest).catch(() => undefined) ?? new Map<string, CatalogRecord>();
  for (const [path, record] of stored) {
    const info = inScope(path) ? recordsInfo(path, [record], options) : null;
    if (info) known.push(info);
  }
  return sortByModified(known);
}

/**
 * Reads the sessions of `scope` through the catalog. What the catalog knew last time shows at
 * once (unless it is on screen already: `onScreen`); then the refresh publishes sorted lists as records
 * come in (at once for unchanged files), ending with exactly the sessions on disk, whose first
 * page is kept for the next start. The rows hold no message texts: a query scans them (`scanScope`).
 */
async function loadScope(
  ctx: CliContext,
  catalog: Catalog,
  scope: Scope,
  onScreen: SessionInfo[] | undefined,
  apply: Apply<PickState>,
  signal: AbortSignal,
): Promise<void> {
  const places = await scopePlaces(ctx, scope === "all");
  const options = { cwdFilter: places.cwdFilter, processCwd: ctx.deps.storage.processCwd };
  // The sessions shown before their records came in (those whose records never come are gone),
  // and the sessions read, in the order their records came: an array, not a map of 25,000.
  const known = new Map<string, SessionInfo>();
  for (const info of onScreen ?? await knownSessions(ctx, catalog, scope)) known.set(info.path, info);
  const found: SessionInfo[] = [];
  const lean = new LeanInfos();
  let loaded = 0;
  let total: number | undefined;
  const publish = (sessions: SessionInfo[], done: boolean) => {
    apply((state) => sessionsLoaded(state, scope, { sessions, loaded, total, done }));
  };
  const shown = () => sortByModified([...known.values(), ...found]);
  if (known.size > 0 && !onScreen) publish(shown(), false);
  const publishSome = throttled(() => {
    const sessions = shown();
    publish(sessions, false);
    // The list it replaced is garbage now: collected while the collection counts in the publish's time.
    if (sessions.length >= COLLECT_FROM) collectGarbage();
  });

  const files = await sessionScope(ctx, scope === "all", catalog);
  total = files.files.length;
  // Records come once per file (refresh-options.ts).
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    loaded++;
    const info = recordsInfo(path, records, options);
    known.delete(path);
    if (info) found.push(lean.of(info));
    if (loaded < total!) publishSome();
  };
  // No records are kept (`keep: false`): only the rows made of them.
  const paced = { listedDirs: files.dirs, pauseEveryMs: KEYS_EVERY, signal, keep: false };
  await catalog.refresh(listingKinds(false), files.files, { ...paced, onRecords });
  // Sorted once, for the state and the first page alike (neither changes it).
  const sessions = sortByModified(found);
  publish(sessions, true);
  const big = sessions.length >= COLLECT_FROM;
  if (big) collectGarbage();
  await writeFirstPage(ctx, places, sessions);
  if (big) collectGarbage();
}

/**
 * Scans the message texts of `scope`'s sessions for the text tests of `query`: the catalog's
 * message-texts section a slice of sessions at a time (files changed since are read again), so
 * that only a slice of texts is in memory, never every session's. Publishes the sessions that
 * passed each test as the scan goes, and once more at its end.
 */
async function scanScope(ctx: CliContext, catalog: Catalog, scope: Scope, query: string, apply: Apply<PickState>, signal: AbortSignal): Promise<void> {
  const tests = textTestsOf(query);
  const keys = tests.map(textTestKey);
  const found = keys.map(() => new Set<string>());
  await new Promise((resolve) => setTimeout(resolve, SCAN_AFTER));
  signal.throwIfAborted();
  const files = await sessionScope(ctx, scope === "all", catalog);
  signal.throwIfAborted();
  const total = files.files.length;
  let scanned = 0;
  const publish = (done: boolean) => {
    const scan = { scope, tests: keys.join("\n"), found: new Map(keys.map((key, i) => [key, new Set(found[i])])), scanned, total, done };
    apply((state) => textsScanned(state, scan));
  };
  const publishSome = throttled(() => publish(false));
  const collect = textsCollector();
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    scanned++;
    const state = recordState(records[0] as CatalogRecord<MessageTexts>);
    if (!state.rejected) textPasses(state.data.text, tests).forEach((passed, i) => passed && found[i].add(path));
    collect(state.data.text);
    publishSome();
  };
  await catalog.refresh([messageTextsDigest], files.files, { listedDirs: files.dirs, pauseEveryMs: KEYS_EVERY, signal, keep: false, onRecords });
  publish(true);
}

/** What the picker's effects work with. */
interface PickEnv {
  ctx: CliContext;
  /** For writes and the catalog: notes (such as "rewritten as v3 first") would land in the middle of the screen. */
  quiet: CliContext;
  /** The catalog, opened when an effect first needs it (the first frame is drawn without it). */
  catalog: () => Promise<Catalog>;
  /** The known sessions the first frame shows already, and of which scope. */
  shown?: { scope: Scope; sessions: SessionInfo[] };
  /** Stops the scan of the texts under way: a new query's replaces it. */
  stopScan?: AbortController;
}

/** `env.ctx` must have resolved its session dir already. */
async function perform(env: PickEnv, effect: PickEffect, apply: Apply<PickState>, signal: AbortSignal): Promise<void> {
  const { ctx, quiet } = env;
  if (effect.kind === "load") {
    // Opened when first needed: the first frame is drawn without it.
    const catalog = await env.catalog();
    // The prompt may have ended while it opened: its effects are over.
    if (signal.aborted) return;
    const onScreen = env.shown?.scope === effect.scope ? env.shown.sessions : undefined;
    env.shown = undefined;
    await loadScope(quiet, catalog, effect.scope, onScreen, apply, signal).catch((error) => apply((state) => effectFailed(state, `Cannot list sessions: ${message(error)}`)));
    return;
  }
  if (effect.kind === "texts") {
    env.stopScan?.abort();
    const stop = env.stopScan = new AbortController();
    const both = AbortSignal.any([signal, stop.signal]);
    const catalog = await env.catalog();
    await scanScope(quiet, catalog, effect.scope, effect.query, apply, both).catch((error) => {
      if (!both.aborted) apply((state) => effectFailed(state, `Cannot search the messages: ${message(error)}`));
    });
    return;
  }
  const { path } = effect;
  try {
    if (effect.kind === "rename") {
      const manager = await openForAppend(quiet, path);
      await writing(path, () => manager.appendSessionInfo(effect.name));
      const info = await readSessionInfo(ctx.fs, path, { withText: true });
      if (info) apply((state) => sessionRenamed(state, info));
    } else {
      const { via, trashPath } = await moveToTrash({ fs: ctx.fs, storage: ctx.deps.storage, exec: ctx.deps.exec, now: ctx.deps.now }, path);
      apply((state) => sessionDeleted(state, path, via === "trash-command" ? "Session moved to trash" : `Session moved to ${trashPath}`));
    }
  } catch (error) {
    const verb = effect.kind === "rename" ? "rename" : "delete";
    apply((state) => effectFailed(state, `Failed to ${verb}: ${message(error)}`));
  }
}

/**
 * The picker as a runnable prompt over `ctx` and an open `catalog` (or a function that opens it,
 * called when an effect first needs it); it exits with the chosen session. `known` (from
 * `knownSessions`, or the first page kept: first-page.ts) fills the first frame, so rows appear at once.
 *
 * @example
 * ```ts
 * // await withCatalog(quiet, async (catalog) => {
 * //   const known = await knownSessions(quiet, catalog, "current");
 * //   return ctx.deps.terminal!.run(pickProgram(ctx, { scope: "current", pageSize: 10, catalog, known }));
 * // });
 * ```
 */
export function pickProgram(
  ctx: CliContext,
  options: { scope: Scope; pageSize: number; catalog: Catalog | (() => Promise<Catalog>); known?: SessionInfo[] },
): PromptProgram<PickState, PickEffect, SessionInfo> {
  const { catalog } = options;
  const env: PickEnv = { ctx, quiet: quietContext(ctx), catalog: typeof catalog === "function" ? catalog : () => Promise.resolve(catalog), shown: options.known?.length ? { scope: options.scope, sessions: options.known } : undefined };
  const renderOptions = { now: ctx.deps.now(), home: ctx.deps.storage.home, colors: ctx.errColor };
  const processCwd = ctx.deps.storage.processCwd;
  return {
    // The texts are scanned for each query rather than held: 80 MB for 25,000 sessions.
    initial: initialPickState({ scope: options.scope, processCwd, pageSize: options.pageSize, known: options.known, texts: "scan" }),
    reduce: reducePick,
    render: (state, size) => renderPick(state, size, renderOptions),
    perform: (effect, apply, signal) => perform(env, effect, apply, signal),
  };
}

/** `ctx` without notes on stderr: while a prompt is drawn they would land in the middle of it. */
export function quietContext(ctx: CliContext): CliContext {
  return new CliContext(ctx.deps, { ...ctx.options, quiet: true });
}
