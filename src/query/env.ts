/**
 * What every query runs against, whatever surface asks: the file system, where sessions live
 * (agent dir, the session-dir choice, the effective cwd), the catalog, the clock, and where
 * notes, warnings and progress go (callbacks: a query never prints). The CLI builds one per
 * command; a server builds one per request over a catalog it keeps open (`createQueryEnv`).
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import { type CatalogMode, defaultCacheDir, openCatalog } from "../catalog/open-catalog.ts";
import { readBytes } from "../io/read-bytes.ts";
import { resolveAgentDir, resolveSessionDir, type SessionDirChoice, type StorageEnv } from "../core/storage/layout.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import { mergeSettings, parseSettings } from "../core/storage/settings.ts";
import { bunFileSystem } from "../io/bun.ts";
import { denoFileSystem } from "../io/deno.ts";
import type { FileSystem } from "../io/file-system.ts";
import { nodeFileSystem } from "../io/node.ts";
import { QueryError } from "./errors.ts";
import type { SessionIndexes } from "./session-indexes.ts";

/** Progress of one long scan (`done` of `total` files read into the catalog). */
export interface Progress {
  update(done: number, total: number): void;
  /** The scan ended (also when it failed). */
  end(): void;
}

/**
 * Where a query's side remarks go. Messages are plain lines for people, with ids and paths
 * from files as they are (a terminal makes control characters visible itself).
 */
export interface QueryReport {
  /** Informational: a fallback taken, a folder that does not exist. */
  note(message: string): void;
  /** Worth more attention than a note: the result is complete but something is odd. */
  notice(message: string): void;
  /** The result lacks something (lines of a file could not be read). */
  warn(message: string): void;
  /** A progress reporter for a scan labelled `label` ("Reading sessions"). */
  progress(label: string): Progress;
}

/** The runtime a query needs; see `createQueryEnv`. */
export interface QueryEnv {
  readonly fs: FileSystem;
  /** Environment variables, home, and the process cwd (relative paths resolve against it). */
  readonly storage: StorageEnv;
  /** pi's agent folder, absolute. */
  readonly agentDir: string;
  /** The directory queries act for (`--cwd`, else the process cwd), absolute. */
  readonly cwd: string;
  /** The session directory for `cwd`, by SPEC precedence (flag > env > settings > default); checked once. */
  sessionDir(): Promise<SessionDirChoice>;
  /** Merged global and project settings; problems are reported once as warnings. */
  settings(): Promise<Record<string, unknown>>;
  /**
   * Runs `work` with the catalog: one opened for the call and closed after it, or a shared one
   * left open (which `options` then do not change).
   */
  withCatalog<T>(work: (catalog: Catalog) => Promise<T>, options?: CatalogUse): Promise<T>;
  now(): Date;
  readonly report: QueryReport;
  /**
   * False to refuse session references that are paths (a server's or a tool's callers may
   * name only sessions in the session directories: by id, id prefix or `@`); default allowed.
   */
  readonly pathRefs?: boolean;
  /**
   * Line indexes of session files kept between queries (a server keeps one set): a page of
   * entries then reads only its lines. Absent, a query that wants one builds it for the call.
   */
  readonly sessionIndexes?: SessionIndexes;
  /**
   * Every session file with its header, as resolving an id or id prefix needs them, kept between
   * queries by a server (which computes them anew when sessions appear or go, and when `fresh`
   * asks: a reference that names none of them may name a session just made): `compute` lists
   * and reads them all, the header of each of thousands of files. Absent, each resolution does.
   */
  readonly keptCandidates?: <T>(compute: () => Promise<T>, fresh?: boolean) => Promise<T>;
}

/** What `createQueryEnv` is built from; only `fs` and `storage` are required. */
export interface QueryEnvInit {
  fs: FileSystem;
  storage: StorageEnv;
  /** `--agent-dir` (else `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`); relative to the process cwd. */
  agentDir?: string;
  /** `--session-dir` (else `$PI_CODING_AGENT_SESSION_DIR`, the `sessionDir` setting, the default). */
  sessionDir?: string;
  /** `--cwd` (else the process cwd); relative to the process cwd. */
  cwd?: string;
  /**
   * A catalog to share (a long-running server opens one with `openQueryCatalog` and closes it at
   * exit); absent: each `withCatalog` call opens one and closes it.
   */
  catalog?: Catalog;
  /** The clock; default the system's. */
  now?: () => Date;
  /** Where notes, warnings and progress go; default nowhere. */
  report?: Partial<QueryReport>;
  /** False to refuse session references that are paths (see `QueryEnv.pathRefs`). */
  pathRefs?: boolean;
  /** Line indexes to keep between queries (see `QueryEnv.sessionIndexes`). */
  sessionIndexes?: SessionIndexes;
  /** Keeps every session's header between queries (see `QueryEnv.keptCandidates`). */
  keptCandidates?: <T>(compute: () => Promise<T>, fresh?: boolean) => Promise<T>;
  /**
   * For the catalogs this env opens itself: given, a full check over a minute old is put off and
   * this is called; the caller makes one soon (`CatalogOptions.later`). Absent: made at once.
   */
  fullCheckLater?: () => void;
}

/** How a call opens its own catalog. */
export interface CatalogUse {
  /** Check a SQLite catalog in full first: a damaged one is set aside and rebuilt (`index --rebuild`). */
  verify?: boolean;
  /** The caller reports a failed save itself (`index`): no note about it then. */
  reportsSaves?: boolean;
  /** A short turn that reads a few records (a slice of a listing): a server need not collect garbage in full after it. */
  brief?: boolean;
}

const MODES: readonly string[] = ["auto", "sqlite", "file", "off"];
const NO_PROGRESS: Progress = { update() {}, end() {} };

/**
 * The catalog for `fs`, as every command opens it: SQLite on the real disk where the runtime
 * has it, else the file store under the cache dir; `PI_SESSION_CATALOG` may force `sqlite`,
 * `file` or `off`. The caller closes it.
 */
export function openQueryCatalog(
  fs: FileSystem,
  storage: StorageEnv,
  note: (message: string) => void = () => {},
  options: CatalogUse & { now?: () => Date; later?: () => void } = {},
): Promise<Catalog> {
  const wanted = storage.env("PI_SESSION_CATALOG") ?? "auto";
  return openCatalog({
    fs,
    cacheDir: defaultCacheDir(storage),
    mode: (MODES.includes(wanted) ? wanted : "auto") as CatalogMode,
    realDisk: fs === nodeFileSystem || fs === denoFileSystem || fs === bunFileSystem,
    // Deno's adapter waits on its reads: a few files at once keep the disk busy meanwhile.
    concurrency: fs === denoFileSystem ? 4 : undefined,
    note: (message) => note(`pi-session: ${message}`),
    verify: options.verify,
    noteSaveFailures: !options.reportsSaves,
    now: options.now,
    // `full`: every run lists every folder and stats every file (see src/catalog/folder-check.ts).
    check: storage.env("PI_SESSION_CHECK") === "full" ? "full" : "auto",
    later: options.later,
  });
}

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await readBytes(fs, path));
  } catch {
    return undefined;
  }
}

/**
 * A query env. Cheap: a server makes one per request (its own `cwd`, say) over one shared catalog.
 *
 * @example
 * ```ts
 * const catalog = await openQueryCatalog(nodeFileSystem, storage);
 * const env = createQueryEnv({ fs: nodeFileSystem, storage, catalog, report: { warn: (m) => warnings.push(m) } });
 * const page = await listSessions(env, { all: true, limit: 50 });
 * ```
 */
export function createQueryEnv(init: QueryEnvInit): QueryEnv {
  const { fs, storage } = init;
  const cwd = resolvePath(storage.processCwd, init.cwd ?? storage.processCwd);
  const agentDir = resolvePath(storage.processCwd, resolveAgentDir(storage, init.agentDir));
  const report: QueryReport = {
    note: init.report?.note ?? (() => {}),
    notice: init.report?.notice ?? (() => {}),
    warn: init.report?.warn ?? (() => {}),
    progress: init.report?.progress ?? (() => NO_PROGRESS),
  };
  let settings: Promise<Record<string, unknown>> | undefined;
  let sessionDir: Promise<SessionDirChoice> | undefined;

  /**
   * A folder named by `--session-dir` or `--agent-dir` that is a file is a usage error; one that
   * does not exist gets a note, so that "no sessions" is not taken for an empty folder.
   */
  async function checkFlagDir(flag: "--agent-dir" | "--session-dir", given: string | undefined, dir: string): Promise<void> {
    if (given === undefined) return;
    const stat = await fs.stat(dir).catch(() => null);
    if (stat === null) report.notice(`${flag} ${dir} does not exist`);
    else if (!stat.isDirectory) {
      const want = flag === "--agent-dir" ? "pi's agent folder (the one holding sessions/ and settings.json)" : "the folder that holds the session files";
      throw new QueryError("bad-option", `${flag} ${dir} is a file, not a folder`, `Pass ${want}`);
    }
  }

  const env: QueryEnv = {
    fs,
    storage,
    agentDir,
    cwd,
    report,
    pathRefs: init.pathRefs ?? true,
    sessionIndexes: init.sessionIndexes,
    keptCandidates: init.keptCandidates,
    now: init.now ?? (() => new Date()),
    settings() {
      settings ??= (async () => {
        let merged: Record<string, unknown> = {};
        for (const path of [joinPath(agentDir, "settings.json"), joinPath(cwd, ".pi", "settings.json")]) {
          const text = await readText(fs, path);
          if (text === undefined) continue;
          const parsed = await parseSettings(text);
          for (const p of parsed.problems) report.warn(`Ignoring ${path}: line ${p.line}, column ${p.column}: ${p.message}`);
          merged = mergeSettings(merged, parsed.settings);
        }
        return merged;
      })();
      return settings;
    },
    sessionDir() {
      sessionDir ??= (async () => {
        await checkFlagDir("--agent-dir", init.agentDir, agentDir);
        const setting = init.sessionDir || storage.env("PI_CODING_AGENT_SESSION_DIR") ? undefined : (await env.settings()).sessionDir;
        const choice = resolveSessionDir(storage, { cwd, agentDir, flag: init.sessionDir, setting });
        const dir = resolvePath(storage.processCwd, choice.dir);
        await checkFlagDir("--session-dir", init.sessionDir, dir);
        return { ...choice, dir };
      })();
      return sessionDir;
    },
    async withCatalog(work, use = {}) {
      if (init.catalog) return work(init.catalog);
      const catalog = await openQueryCatalog(fs, storage, report.note, { ...use, now: env.now, later: init.fullCheckLater });
      try {
        return await work(catalog);
      } finally {
        catalog.close();
      }
    },
  };
  return env;
}
