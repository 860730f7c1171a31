/**
 * Turns a session reference into a file: a path, a full id (this directory's copy first), an id
 * prefix unique among every project's sessions, or `@` for the most recent session here.
 * Unlike pi, an ambiguous prefix is an error that lists the candidates, also when only one of
 * them is in this directory: a prefix printed for a session elsewhere must not open this one.
 * @module
 */
import type { SessionHeader } from "../../core/format/types.ts";
import { baseName, resolvePath } from "../../core/storage/paths.ts";
import { allSessionFiles, mapConcurrent, sessionFilesIn } from "../../session/list-sessions.ts";
import { collectGarbage } from "../../io/collect-garbage.ts";
import { GarbagePacer } from "../../io/garbage-pacer.ts";
import { readHeader } from "../../session/read-header.ts";
import { listingDigest } from "../../core/digest/listing-digest.ts";
import { type HeaderIdIndex, plainId } from "../../catalog/header-id-index.ts";
import type { CheckMode } from "../../catalog/folder-check.ts";
import type { QueryEnv } from "../env.ts";
import { sessionScope } from "../scope.ts";
import { QueryError } from "../errors.ts";
import { type Candidate, CandidatePacker, candidateSet, type CandidateSet, type KeptCandidates } from "./kept-candidates.ts";

export type { Candidate, CandidateSet } from "./kept-candidates.ts";

/** True when a reference is meant as a path rather than an id. */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

/** Headers read at once. */
const READ_CONCURRENCY = 32;
/** Headers read between two full collections while a server packs them all, and between two young ones. */
const COLLECT_READS = 2500;
const YOUNG_READS = 250;

/** The candidate of one file, or null when it is not a session (or not of `cwdFilter`). */
async function candidateOf(env: QueryEnv, path: string, cwdFilter?: string): Promise<Candidate | null> {
  const header = await readHeader(env.fs, path);
  if (!header) return null;
  if (cwdFilter !== undefined && (typeof header.cwd !== "string" || resolvePath(env.cwd, header.cwd) !== cwdFilter)) return null;
  const stat = await env.fs.stat(path);
  return { path, header: { id: header.id, cwd: header.cwd }, mtimeMs: stat?.mtimeMs ?? 0 };
}

async function candidates(env: QueryEnv, files: string[], cwdFilter?: string): Promise<Candidate[]> {
  const found = await mapConcurrent(files, READ_CONCURRENCY, (path) => candidateOf(env, path, cwdFilter));
  return found.filter((c): c is Candidate => c !== null);
}

/** Sessions of the current directory (the per-cwd folder, or a custom dir filtered by cwd). */
export async function localCandidates(env: QueryEnv): Promise<Candidate[]> {
  const choice = await env.sessionDir();
  return candidates(env, await sessionFilesIn(env.fs, choice.dir), choice.custom ? env.cwd : undefined);
}

/** Which of `everywhere` are this directory's sessions (its folder's, or by cwd in a custom dir). */
async function localPaths(env: QueryEnv, everywhere: CandidateSet): Promise<Set<string>> {
  const choice = await env.sessionDir();
  if (!choice.custom) return new Set(await sessionFilesIn(env.fs, choice.dir));
  const here = new Set<string>();
  for (let i = 0; i < everywhere.length; i++) {
    const cwd = everywhere.cwd(i);
    if (typeof cwd === "string" && resolvePath(env.cwd, cwd) === env.cwd) here.add(everywhere.path(i));
  }
  return here;
}

/** The session files of every project (or of the flat custom session dir). */
async function everySessionFile(env: QueryEnv): Promise<string[]> {
  const choice = await env.sessionDir();
  return choice.custom ? await sessionFilesIn(env.fs, choice.dir) : await allSessionFiles(env.fs, env.agentDir);
}

/** Sessions of every project (or of the flat custom session dir), read now. */
export async function globalCandidates(env: QueryEnv): Promise<Candidate[]> {
  return candidates(env, await everySessionFile(env));
}

/**
 * `globalCandidates`, packed as each header is read (`CandidatePacker`), never held as a list.
 */
async function packedCandidates(env: QueryEnv): Promise<KeptCandidates> {
  const files = await everySessionFile(env);
  const packer = new CandidatePacker(files.length);
  // A young collection every YOUNG_READS headers, a full one (pages kept) instead every COLLECT_READS.
  const pacer = new GarbagePacer({ everyItems: YOUNG_READS, itemsYoung: true, everyAmount: COLLECT_READS, collect: (young) => (young ? collectGarbage(true) : collectGarbage(false, false)) });
  await mapConcurrent(files, READ_CONCURRENCY, async (path, place) => {
    const candidate = await candidateOf(env, path);
    if (candidate) packer.put(place, candidate);
    // What each read leaves (its buffer, the header parsed, a stat) is collected as they go: the
    // server's collection every 4 MB read is per file, and never came for reads of 4 KB.
    pacer.item(1);
  });
  return packer.pack();
}

/** `globalCandidates`, packed and kept by the env when it keeps them (a server), else read now. */
export async function knownCandidates(env: QueryEnv, fresh = false): Promise<CandidateSet> {
  if (!env.keptCandidates) return candidateSet(await globalCandidates(env));
  return env.keptCandidates(() => packedCandidates(env), fresh);
}

/** The files whose stored id starts with `ref` and their ids, or undefined where the index failed (then every stored id is compared). */
function withPrefix(index: HeaderIdIndex, ref: string): [id: string, path: string][] | undefined {
  try {
    return index.withPrefixIds(ref);
  } catch {
    return undefined;
  }
}

/**
 * The candidates of a reference that the index shows to be ambiguous: `matched` (several stored
 * ids start with `ref`, none is `ref`) as the index has them, with the headers of the files it
 * cannot vouch for (`unread`), which are read. Undefined when one of those is `ref` exactly (an
 * exact id wins over prefixes): then everything is read. A prefix of thousands of sessions
 * (`info 01a2`: ids made the same day share their first characters) read every one's header
 * only to list ten of them (1.6 s at 25,000 sessions).
 */
async function ambiguousCandidates(env: QueryEnv, ref: string, matched: readonly [string, string][], unread: readonly string[]): Promise<Candidate[] | undefined> {
  const read = await candidates(env, [...unread]);
  if (read.some((candidate) => candidate.header.id === ref)) return undefined;
  // Neither cwd nor mtime is looked at for an ambiguous reference (`pick`); the local files are named by folder.
  return [...matched.map(([id, path]): Candidate => ({ path, header: { id, cwd: "" }, mtimeMs: 0 })), ...read];
}

/** The candidates of a reference through the catalog, and whether every file was stat'ed for them (a full check). */
interface CatalogAnswer {
  candidates: Candidate[];
  full: boolean;
}

/**
 * The candidates `pick` can choose for `ref` among every project's sessions, through the
 * catalog: the header ids it stores for current records rule out the files whose id does not
 * start with `ref`; the others (a match, or a file without a current record or usable header id)
 * are read as `globalCandidates` reads them. Which records are current is by the catalog's check
 * (`check` full: every folder listed, every file stat'ed). Undefined when the catalog is off or
 * unreadable.
 */
function catalogCandidates(env: QueryEnv, ref: string, check?: CheckMode): Promise<CatalogAnswer | undefined> {
  return env.withCatalog(async (catalog) => {
    if (!catalog.store) return undefined;
    const scope = await sessionScope(env, true, catalog, check);
    const full = scope.listing !== undefined && catalog.checksInFull(listingDigest, scope.listing);
    const answer = (candidates: Candidate[]): CatalogAnswer => ({ candidates, full });
    // The files whose stored id starts with `ref`, through the catalog's index of ids, and those it cannot vouch for.
    const indexed = scope.listing && plainId(ref) ? await catalog.headerIdIndex(listingDigest, scope.listing, scope.dirs) : undefined;
    const matched = indexed && withPrefix(indexed, ref);
    if (indexed && matched) {
      const ids = new Set(matched.map(([id]) => id));
      // In a custom folder, which sessions are this directory's is told by their headers' cwds.
      const ambiguous = ids.size > 1 && !ids.has(ref) && !(await env.sessionDir()).custom;
      const listed = ambiguous ? await ambiguousCandidates(env, ref, matched, indexed.unread) : undefined;
      return answer(listed ?? await candidates(env, [...new Set([...matched.map(([, path]) => path), ...indexed.unread])]));
    }
    const ids = scope.listing && await catalog.storedHeaderIds(listingDigest, scope.listing, scope.dirs);
    if (!ids) return undefined;
    const maybe = (path: string) => {
      const id = ids.get(path);
      return id === undefined || id === null || id.startsWith(ref);
    };
    return answer(await candidates(env, scope.files.filter(maybe)));
  });
}

/**
 * The sessions of every project whose id starts with `prefix`, for shell completion: through the
 * catalog's index of ids where it can answer (each match stat'ed for its mtime, and the files it
 * cannot vouch for read), else every header read (`globalCandidates`), as a TAB at 25,000
 * sessions did each time (1.1 s for a prefix of one session). The index's promise is the quick
 * check's (catalog.ts); a candidate's cwd is not given.
 */
export async function completionCandidates(env: QueryEnv, prefix: string): Promise<Candidate[]> {
  const indexed = prefix === "" || plainId(prefix) ? await env.withCatalog(async (catalog) => {
    if (!catalog.store) return undefined;
    const scope = await sessionScope(env, true, catalog);
    const index = scope.listing && await catalog.headerIdIndex(listingDigest, scope.listing, scope.dirs);
    const matched = index && withPrefix(index, prefix);
    if (!index || !matched) return undefined;
    const stated = await mapConcurrent(matched, READ_CONCURRENCY, async ([id, path]): Promise<Candidate | null> => {
      const stat = await env.fs.stat(path).catch(() => null);
      return stat ? { path, header: { id, cwd: "" }, mtimeMs: stat.mtimeMs } : null;
    });
    const read = await candidates(env, [...index.unread]);
    return [...stated, ...read].filter((c): c is Candidate => c !== null && c.header.id.startsWith(prefix));
  }) : undefined;
  return indexed ?? (await globalCandidates(env)).filter((c) => c.header.id.startsWith(prefix));
}

/** The most recently written session of the current directory (pi -c), or undefined. */
export async function mostRecentLocal(env: QueryEnv): Promise<string | undefined> {
  const local = await localCandidates(env);
  // Whole milliseconds: runtimes differ in sub-millisecond precision, and ties must break
  // the same way everywhere (by name, newest first, as file names start with the time).
  local.sort((a, b) => Math.floor(b.mtimeMs) - Math.floor(a.mtimeMs) || (a.path < b.path ? 1 : -1));
  return local[0]?.path;
}

/** Text order, for ties broken the same way whatever order the candidates came in. */
function byText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Of several files of one session (copies, positions in `set`), the one in this directory, else the newest, else the first by path. */
function preferred(set: CandidateSet, list: number[], local: ReadonlySet<string>): number {
  return [...list].sort((a, b) => Number(local.has(set.path(b))) - Number(local.has(set.path(a))) || set.mtimeMs(b) - set.mtimeMs(a) || byText(set.path(a), set.path(b)))[0];
}

/**
 * The path of the candidate `ref` names among every known session: an exact id, else a prefix
 * of exactly one session id (a prefix of several ids is ambiguous wherever they are).
 */
function pick(ref: string, set: CandidateSet, local: ReadonlySet<string>): string | undefined {
  const exact: number[] = [];
  const prefixed: number[] = [];
  for (let i = 0; i < set.length; i++) {
    const id = set.id(i);
    if (id === ref) exact.push(i);
    else if (id.startsWith(ref)) prefixed.push(i);
  }
  if (exact.length >= 1) return set.path(preferred(set, exact, local));
  const ids = new Set(prefixed.map((i) => set.id(i)));
  if (ids.size > 1) {
    // This directory's first, then by id, then (copies of one session) by path: the same list
    // whichever way the candidates came (the catalog's index of ids, or every header read).
    prefixed.sort((a, b) => Number(local.has(set.path(b))) - Number(local.has(set.path(a))) || byText(set.id(a), set.id(b)) || byText(set.path(a), set.path(b)));
    const shown = prefixed.slice(0, 10).map((i) => `  ${set.id(i)}  ${set.path(i)}`);
    throw new QueryError(
      "ambiguous-session",
      `Session reference "${ref}" matches ${ids.size} sessions:\n${shown.join("\n")}${prefixed.length > 10 ? "\n  …" : ""}`,
      "Type more characters of the id, or pass the file path",
    );
  }
  return prefixed.length ? set.path(preferred(set, prefixed, local)) : undefined;
}

/**
 * The absolute path a session reference names.
 *
 * @example
 * ```ts
 * // await resolveSessionRef(env, "@");        // most recent session here
 * // await resolveSessionRef(env, "01a2b3");   // unique id prefix
 * ```
 */
export async function resolveSessionRef(env: QueryEnv, ref: string): Promise<string> {
  if (ref === "") throw new QueryError("bad-reference", "Empty session reference", "Pass a path, a session id or prefix, or @");
  if (ref === "@") {
    const recent = await mostRecentLocal(env);
    if (!recent) {
      throw new QueryError("no-session", `No session found for ${env.cwd}`, "Use --all with `pi-session list` to see other projects, or pass --cwd");
    }
    return recent;
  }
  if (looksLikePath(ref)) {
    if (env.pathRefs === false) {
      throw new QueryError("bad-reference", `Session reference "${ref}" is a path; only session ids, id prefixes and @ are taken here`, "Pass a session id or a unique prefix of one");
    }
    const path = resolvePath(env.storage.processCwd, ref);
    const stat = await env.fs.stat(path);
    if (!stat) throw new QueryError("not-found", `Cannot read ${path}: no such file`, "Check the path; `pi-session list --all` shows known sessions", 3);
    if (stat.isDirectory) throw new QueryError("is-directory", `${path} is a directory, not a session file`, "Pass a .jsonl session file", 3);
    // A pipe (`<(…)`, /dev/stdin) gives its bytes once, and commands read a file more than once.
    if (!stat.isFile) {
      throw new QueryError("not-a-file", `${path} is a pipe or a device, not a session file`, "Save the session to a file first (`… > session.jsonl`) and pass that file", 3);
    }
    return path;
  }
  // Without a server's kept headers: through the catalog where it is on, else every file's header.
  const viaCatalog = env.keptCandidates ? undefined : await catalogCandidates(env, ref);
  let everywhere = viaCatalog ? candidateSet(viaCatalog.candidates) : await knownCandidates(env);
  let found = pick(ref, everywhere, await localPaths(env, everywhere));
  // Kept headers may predate a session just made, and the catalog's quick check an old session
  // rewritten in place: look again before saying there is none. Through the catalog's full check
  // (every folder listed, every file stat'ed, the changed ones read): at 25,000 sessions, `info`
  // of a reference that matched nothing took 606 ms reading every header instead, 314 so (by hand).
  if (!found && (env.keptCandidates || (viaCatalog && !viaCatalog.full))) {
    const checked = viaCatalog && await catalogCandidates(env, ref, "full");
    // Else every header: the catalog's stamps are garbage now, collected before thousands of headers are read (Bun).
    if (viaCatalog && !checked) collectGarbage();
    everywhere = checked ? candidateSet(checked.candidates) : await knownCandidates(env, true);
    found = pick(ref, everywhere, await localPaths(env, everywhere));
  }
  if (!found) {
    throw new QueryError("no-session", `No session found matching "${ref}"`, "Run `pi-session list --all` to see session ids");
  }
  return found;
}

/** Short display name of a session file for messages. */
export function shortName(path: string): string {
  return baseName(path);
}
