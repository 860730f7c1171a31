/**
 * The full-text index of every served session, built in the background after the server starts,
 * a slice of files per catalog turn while no request is being answered, so that the first search
 * typed does not wait for all of it. Until it is built, searches scan the files instead
 * (`SearchWarmup.ready`), as the CLI does on a cold index.
 * @module
 */
import { docsDigest } from "../core/digest/docs-digest.ts";
import type { QueryEnv } from "../query/env.ts";
import { sessionScope } from "../query/scope.ts";
import { PackedPaths } from "../core/intern/packed-paths.ts";
import { PassCollector } from "../catalog/stamps.ts";

/** Files indexed per catalog turn: each turn ends with a collection, so memory stays that of one slice. */
const SLICE = 25;
/** How long a slice works before it gives the event loop a turn (requests, the watcher). */
const PAUSE_EVERY_MS = 20;

export interface SearchWarmupOptions {
  /** A query env over the server's catalog (its `withCatalog` takes turns with requests). */
  env: () => QueryEnv;
  /** Ends the build (the server closing). */
  signal: AbortSignal;
  /** Starts once this settles (the headers' warm-up). */
  after?: Promise<unknown>;
  /**
   * True while the server answers no request (and has not for a moment): a slice starts only
   * then, so the build's memory does not add to that of a load or of a big session's page.
   */
  quiet?: () => boolean;
  slice?: number;
}

/** Where the background index is: built or not, and the build's end. */
export class SearchWarmup {
  #ready = false;
  /** Resolves once the build ended: true when the index is complete, false when there is none to build or it stopped. */
  readonly done: Promise<boolean>;

  constructor(options: SearchWarmupOptions) {
    this.done = build(options).then((built) => (this.#ready = built), () => false);
  }

  /** True once every session the server had at the start is in the index (those over 16 MB aside). */
  get ready(): boolean {
    return this.#ready;
  }
}

/**
 * Files bigger than this are left to the first search that needs them: indexing one takes
 * seconds in one go (the bench's 90 MB session: a page asked for meanwhile took 4.6 s, not 0.8).
 */
const BIG_FILE = 16 * 1024 * 1024;
/** How often a build waiting for a quiet moment looks again. */
const QUIET_POLL_MS = 250;

async function build({ env, signal, after, quiet = () => true, slice = SLICE }: SearchWarmupOptions): Promise<boolean> {
  // Closing the server does not wait for the warm-up before it.
  await Promise.race([after, new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
  signal.throwIfAborted();
  // Only a store with a full-text index (SQLite) has one to build; others scan every time.
  if (!(await env().withCatalog(async (catalog) => Boolean(catalog.store?.supportsDocs)))) return false;
  const { fs } = env();
  // The files listed and stat'ed in a catalog turn of their own: a request's walk coming
  // meanwhile (`/metrics`' stats) waits, where both held every path at once.
  const files = await env().withCatalog(async () => {
    const small: string[] = [];
    // Each stat leaves an object behind: collected as they go, not let pile up (25,000 of them).
    const collector = new PassCollector();
    for (const path of (await sessionScope(env(), true)).files) {
      collector.item();
      const stat = await fs.stat(path).catch(() => null);
      if (stat && stat.size <= BIG_FILE) small.push(path);
    }
    collector.end();
    // Held as one string for the build's length (minutes on a large corpus), not a string each.
    return new PackedPaths(small);
  });
  for (let at = 0; at < files.length; at += slice) {
    while (!quiet()) {
      signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
    }
    signal.throwIfAborted();
    // Partial: only this slice's stored records are loaded, and the catalog keeps none of them.
    await env().withCatalog((catalog) => catalog.refresh([docsDigest], files.slice(at, at + slice), { partial: true, pauseEveryMs: PAUSE_EVERY_MS, signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return true;
}
