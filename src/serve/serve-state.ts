/**
 * What a running server keeps between requests: its configuration, the catalog it shares, the
 * watcher behind `/api/events`, the open event streams and the metrics. `openServeState`
 * builds it; `close` releases it (streams end, the watcher stops, the catalog closes).
 * @module
 */
import { Catalog } from "../catalog/catalog.ts";
import type { StorageEnv } from "../core/storage/layout.ts";
import { joinPath } from "../core/storage/paths.ts";
import { Redactor } from "../core/redact/redactor.ts";
import type { FileSystem } from "../io/file-system.ts";
import { type CatalogMode, defaultCacheDir, openCatalog } from "../catalog/open-catalog.ts";
import { bunFileSystem } from "../io/bun.ts";
import { denoFileSystem } from "../io/deno.ts";
import { nodeFileSystem } from "../io/node.ts";
import { createQueryEnv, type QueryEnv } from "../query/env.ts";
import { type CandidateSet, knownCandidates } from "../query/resolve/session-ref.ts";
import { SessionIndexes } from "../query/session-indexes.ts";
import { confinedFileSystem } from "./confined-fs.ts";
import { turnTakingFileSystem } from "./turn-taking-fs.ts";
import { allSessionFiles, sessionFilesIn } from "../session/list-sessions.ts";
import { EventStreams } from "./live/event-stream.ts";
import { SessionWatcher } from "./live/session-watcher.ts";
import { ServeMetrics } from "./metrics/serve-metrics.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { AnswerCache } from "./answer-cache.ts";
import { mcpHttpHandler } from "../mcp/http.ts";
import { SearchWarmup } from "./search-warmup.ts";

export interface ServeConfig {
  fs: FileSystem;
  storage: StorageEnv;
  /** `--agent-dir`, `--session-dir`: as for every command. */
  agentDir?: string;
  sessionDir?: string;
  /** The address bound; a loopback one turns on the Host check. */
  bindHost: string;
  /** Required on every request but `/healthz` when set. */
  token?: string;
  /** The one origin allowed to call the API from a browser; none when absent. */
  cors?: string;
  /** Mask secrets in everything served (default on; `--no-redact`). */
  redact: boolean;
  /** `pi-session 1.2.3 (abc1234)`, shown in pages. */
  version: string;
  now?: () => Date;
  /** Poll periods of the watcher (ms); tests shorten them. */
  pollMs?: { watched: number; unwatched: number };
  /** Where the server writes its log lines (internal errors); default nowhere. */
  log?: (line: string) => void;
  /** Listings of more sessions than `from` are streamed `slice` sessions at a time (default 500, 500; tests lower them). */
  listStream?: { from: number; slice: number };
  /** A catalog to use instead of opening one (tests). */
  catalog?: Catalog;
}

export interface ServeState {
  readonly config: ServeConfig;
  readonly watcher: SessionWatcher;
  readonly streams: EventStreams;
  readonly metrics: ServeMetrics;
  /** A query env for one request; `cwd` scopes "this directory" queries to a project. */
  env(cwd?: string): QueryEnv;
  /**
   * The env for a full-text search: `env()` once the background index is built; until then one
   * whose catalog keeps nothing, so the search scans the files rather than wait for the index.
   */
  searchEnv(cwd?: string): QueryEnv;
  /** The full-text index built in the background after the start. */
  readonly searchWarmup: SearchWarmup;
  /** Counts a request being answered (event streams aside) until the function returned is called. */
  answering(): () => void;
  /** A fresh redactor for one response (its counts are per response), or null with `--no-redact`. */
  redactor(): Redactor | null;
  /** `value` with secrets masked when redaction is on. */
  present<T>(value: T): T;
  /**
   * The answer for `key`, computed once until the watcher sees any session change: repeated
   * requests (a page reloaded, a list polled, 50 clients) do not walk the catalog each time.
   */
  cached<T>(key: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T>;
  /**
   * Runs work that reads a whole session into memory (info, tree, entries, context) one at a
   * time: a page asking for a 90 MB session's facts and tree at once would otherwise hold it twice.
   */
  oneSessionAtATime<T>(work: () => Promise<T>): Promise<T>;
  /** The MCP server over Streamable HTTP (`/mcp`): the same tools as `pi-session mcp --all`, confined like the rest. */
  mcp(request: Request): Promise<Response>;
  log(line: string): void;
  close(): Promise<void>;
}

const MODES: readonly string[] = ["auto", "sqlite", "file", "off"];
/** How long after its last answer the server counts as quiet (the background index goes on then). */
const QUIET_MS = 500;
/** How often work waiting for a quiet moment looks again. */
const QUIET_POLL_MS = 250;

/**
 * Opens the catalog, confines reading to the served folders, lists the session files once, and
 * starts watching them.
 */
export async function openServeState(config: ServeConfig): Promise<ServeState> {
  const { storage } = config;
  // Where sessions are, found with the unconfined disk (settings may name the folder).
  const probe = createQueryEnv({ fs: config.fs, storage, agentDir: config.agentDir, sessionDir: config.sessionDir });
  const choice = await probe.sessionDir();
  const watchDir = choice.custom ? choice.dir : joinPath(probe.agentDir, "sessions");
  const cacheDir = defaultCacheDir(storage);
  // Every 4 MB read, what the read left behind (young) is collected.
  const fs = turnTakingFileSystem(confinedFileSystem(
    config.fs,
    [watchDir, cacheDir, joinPath(probe.agentDir, "settings.json"), joinPath(probe.cwd, ".pi", "settings.json")],
    [cacheDir],
  ), 4 * 1024 * 1024, () => collectGarbage(true));
  const ownCatalog = config.catalog === undefined;
  const wanted = storage.env("PI_SESSION_CATALOG") ?? "auto";
  const raw = config.fs;
  const catalog = config.catalog ?? (await openCatalog({
    fs,
    cacheDir,
    mode: (MODES.includes(wanted) ? wanted : "auto") as CatalogMode,
    realDisk: raw === nodeFileSystem || raw === denoFileSystem || raw === bunFileSystem,
    concurrency: raw === denoFileSystem ? 4 : undefined,
    note: config.log,
  }));
  // Line indexes of the sessions last opened: a page of entries reads only its lines.
  const sessionIndexes = new SessionIndexes({ built: () => collectGarbage() });
  // Every session's header, for resolving ids (each resolution would read them all), until sessions come or go.
  let candidates: Promise<CandidateSet> | undefined;
  const keptCandidates = <T>(compute: () => Promise<T>, fresh = false): Promise<T> => {
    if (fresh) candidates = undefined;
    const kept = (candidates ??= compute() as Promise<unknown> as Promise<CandidateSet>);
    kept.catch(() => candidates === kept && (candidates = undefined));
    return kept as Promise<unknown> as Promise<T>;
  };
  // One catalog refresh at a time: two at once would read and save the same files twice.
  let catalogTurn: Promise<unknown> = Promise.resolve();
  const env = (cwd?: string): QueryEnv => {
    const inner = createQueryEnv({ fs, storage, agentDir: config.agentDir, sessionDir: config.sessionDir, cwd, catalog, now: config.now, pathRefs: false, sessionIndexes, keptCandidates });
    return {
      ...inner,
      sessionDir: () => inner.sessionDir(),
      settings: () => inner.settings(),
      now: () => inner.now(),
      // Each turn over a catalog of its own on the shared store: what a turn loaded (every
      // session's records, for a listing or the stats) is not kept for the server's life.
      withCatalog: (work, use) => {
        const turn = catalogTurn.then(() => work(catalog.sibling()));
        // A refresh may have read thousands of files: their leftovers go before the next turn.
        catalogTurn = turn.catch(() => {}).then(() => collectGarbage(use?.brief));
        return turn;
      },
    };
  };
  const watcher = new SessionWatcher({
    fs,
    watchDirs: [watchDir],
    listFiles: () => (choice.custom ? sessionFilesIn(fs, choice.dir) : allSessionFiles(fs, probe.agentDir)),
    pollMs: config.pollMs,
    collect: () => collectGarbage(true),
    scanned: () => collectGarbage(),
  });
  const redactor = () => (config.redact ? new Redactor() : null);
  const streams = new EventStreams({
    subscribe: (listener) => watcher.subscribe(listener),
    present: (event) => (config.redact && typeof event.name === "string" ? { ...event, name: new Redactor().text(event.name) } : event),
  });
  const log = config.log ?? (() => {});
  // Answers until the next change; subscribed first, so it is cleared before any stream hears of it.
  const answers = new AnswerCache();
  watcher.subscribe(() => answers.clear());
  watcher.subscribe((event) => {
    if (event.type === "created" || event.type === "deleted") candidates = undefined;
    else if (event.type === "appended" && candidates) {
      // Of two copies of a session, the newest is taken: an append to one may change which.
      const kept = candidates;
      void kept.then((list) => {
        let copies = 0;
        for (let i = 0; i < list.length && copies < 2; i++) if (list.id(i) === event.id) copies++;
        if (candidates === kept && copies > 1) candidates = undefined;
      }, () => {});
    }
  });
  const cached = <T>(key: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T> => answers.get(key, compute, weigh);
  let warmupEnded = false;
  const metrics = new ServeMetrics({ env: () => env(), watcher, streams, warmedUp: () => warmupEnded });
  let sessionTurn: Promise<unknown> = Promise.resolve();
  const oneSessionAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = sessionTurn.then(work, work);
    // What one read left behind is collected before the next starts, which then reuses that memory.
    sessionTurn = turn.catch(() => {}).then(() => collectGarbage());
    return turn;
  };
  const mcp = mcpHttpHandler({
    runtime: { fs, storage, now: config.now ?? (() => new Date()) },
    scope: { agentDir: config.agentDir, sessionDir: config.sessionDir },
    all: true,
    redact: config.redact,
    log,
  });
  const building = new AbortController();
  // Requests being answered, and when the last one ended: the index is built between them.
  let answering = 0;
  // Counted from the start: the first requests, coming right after it, go before the warm-up.
  let lastAnswered = performance.now();
  const quiet = () => answering === 0 && performance.now() - lastAnswered >= QUIET_MS;
  const untilQuiet = async () => {
    while (!quiet() && !building.signal.aborted) await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
  };
  let searchWarmup: SearchWarmup | undefined;
  const searchEnv = (cwd?: string): QueryEnv => {
    if (searchWarmup?.ready) return env(cwd);
    const scanning = new Catalog(fs);
    return createQueryEnv({ fs, storage, agentDir: config.agentDir, sessionDir: config.sessionDir, cwd, catalog: scanning, now: config.now, pathRefs: false, sessionIndexes, keptCandidates });
  };
  const state: ServeState = {
    config,
    watcher,
    streams,
    metrics,
    env,
    searchEnv,
    get searchWarmup() {
      return searchWarmup!;
    },
    answering() {
      answering++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        answering--;
        lastAnswered = performance.now();
      };
    },
    redactor,
    present: (value) => redactor()?.value(value) ?? value,
    cached,
    oneSessionAtATime,
    mcp,
    log,
    async close() {
      building.abort();
      streams.closeAll();
      watcher.close();
      await mcp.close();
      // The build stops at its next pause; the catalog closes after it.
      await searchWarmup?.done;
      if (ownCatalog) catalog.close();
    },
  };
  await watcher.start();
  // The first scan of a big corpus takes seconds: counted from now, not from before it, the
  // first requests still go before the warm-up rather than wait behind it (its reads, and what
  // it keeps, came first at 25,000 sessions).
  lastAnswered = performance.now();
  // Read every session's header in the background, so the first session opened need not, once
  // no request is being answered (its reads would add to theirs, and it to their memory). Then
  // the full-text index, so that the first search typed need not build it (it scans until then).
  // The read takes a catalog turn: a request coming meanwhile (a listing, `/metrics`' stats walk)
  // waits for it, and for the collection after it, where the two ran at once and held both.
  const warmedUp = untilQuiet().then(() => building.signal.aborted ? undefined : env().withCatalog(() => knownCandidates(env()))).then(() => collectGarbage(), () => {});
  searchWarmup = new SearchWarmup({ env: () => env(), signal: building.signal, after: warmedUp, quiet });
  void searchWarmup.done.then(() => (warmupEnded = true));
  return state;
}
