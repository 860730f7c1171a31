/**
 * The picker's first page, kept in the cache directory from its last complete load: the first
 * frame shows it at once, before the catalog's records of every session (2,400 sessions are a
 * megabyte of state to load and parse) arrive and replace it. It only has to be right until then:
 * a stale page is corrected as the stale records of the catalog are, by the refresh.
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";
import { joinPath, resolvePath } from "../../../core/storage/paths.ts";
import { readBytes } from "../../../io/read-bytes.ts";
import { defaultCacheDir } from "../../../catalog/open-catalog.ts";
import { sortByModified } from "../../../session/list-sessions.ts";
import type { CliContext } from "../../context.ts";
import { threadRows } from "./threads.ts";
import { fnv1a } from "../../../core/digest/fnv1a.ts";
import { knowWidths, measuredWidths } from "../../../render/text-width.ts";
import { VERSION_LINE } from "../../../version.ts";

/** Rows kept: several pages' worth, so that threading them gives the same first page. */
export const FIRST_PAGE_ROWS = 60;
/** Rows that must come out the same: the most the picker shows (pi shows 10). */
export const FIRST_PAGE_CHECKED = 10;
const FORMAT = 1;

/**
 * The sessions of the first `rows` rows of the threaded list of `sessions` (newest first, as the
 * picker starts), in the order of `sessions`; undefined when threading just these would not
 * give the first `FIRST_PAGE_CHECKED` rows again, tree marks included. (A row's parent always
 * comes before it, so it nearly always does; only a thread of dozens of forks can leave a row
 * near the top thinking it is the last of its siblings.)
 */
export function firstPageSessions(sessions: readonly SessionInfo[], processCwd: string, rows = FIRST_PAGE_ROWS): SessionInfo[] | undefined {
  const key = (path: string) => resolvePath(processCwd, path);
  const all = threadRows(sessions, key);
  const shown = new Set(all.slice(0, rows).map((row) => row.session));
  const page = sessions.filter((session) => shown.has(session));
  const again = threadRows(page, key);
  const same = all.slice(0, FIRST_PAGE_CHECKED).every((row, i) => again[i]?.session === row.session && again[i].prefix === row.prefix);
  return same ? page : undefined;
}

const PREFIX = "pick-first-page-";

/** Removes every kept first page (with the catalog, by `index --rebuild`); never fails. */
export async function clearFirstPages(ctx: CliContext): Promise<void> {
  const dir = defaultCacheDir(ctx.deps.storage);
  try {
    for (const entry of await ctx.fs.list(dir)) if (entry.isFile && entry.name.startsWith(PREFIX)) await ctx.fs.remove(joinPath(dir, entry.name));
  } catch {
    // Nothing kept, or nothing that can be removed: the next load rewrites what it shows anyway.
  }
}

type Places = { dirs: readonly string[]; cwdFilter?: string };

/** What tells scopes apart: their folders and cwd filter. */
const placesKey = (places: Places) => JSON.stringify([places.dirs, places.cwdFilter ?? null]);

/** The file of a scope's first page. */
function pageFile(ctx: CliContext, places: Places): string | undefined {
  if (ctx.deps.storage.env("PI_SESSION_CATALOG") === "off") return undefined;
  const key = placesKey(places);
  // A short, stable file name for the key.
  const hash = fnv1a(key);
  return joinPath(defaultCacheDir(ctx.deps.storage), `${PREFIX}${hash.toString(16).padStart(8, "0")}.json`);
}

interface StoredPage {
  format: number;
  key: string;
  /** Times in ms since the epoch; null for an invalid one. */
  sessions: (Omit<SessionInfo, "created" | "modified" | "allMessagesText"> & { created: number | null; modified: number | null })[];
  /**
   * The build that kept the page (`VERSION_LINE`) and the text widths it measured first: the runs
   * of its first frame, taken as known by a start of the same build (text-width.ts's `knowWidths`).
   */
  build?: string;
  widths?: [string, number][];
}

/** The first page kept for `places`, or undefined (none yet, unreadable, or of another format). */
export async function readFirstPage(ctx: CliContext, places: Places): Promise<SessionInfo[] | undefined> {
  const file = pageFile(ctx, places);
  if (file === undefined) return undefined;
  try {
    const page = JSON.parse(new TextDecoder().decode(await readBytes(ctx.fs, file))) as StoredPage;
    if (page.format !== FORMAT || page.key !== placesKey(places) || page.sessions.length === 0) return undefined;
    if (page.build === VERSION_LINE) knowWidths(page.widths);
    const date = (ms: number | null) => new Date(ms ?? Number.NaN);
    return sortByModified(page.sessions.map((s) => ({ ...s, created: date(s.created), modified: date(s.modified), allMessagesText: "" })));
  } catch {
    return undefined;
  }
}

const ms = (date: Date): number | null => (Number.isNaN(date.getTime()) ? null : date.getTime());

/** Keeps the first page of `sessions` (the complete list of `places`) for the next start; never fails. */
export async function writeFirstPage(ctx: CliContext, places: Places, sessions: readonly SessionInfo[]): Promise<void> {
  const file = pageFile(ctx, places);
  if (file === undefined) return;
  const first = firstPageSessions(sessions, ctx.deps.storage.processCwd);
  const page: StoredPage = {
    format: FORMAT,
    key: placesKey(places),
    // Without a page that threads alike, an empty one: the next start reads the catalog instead.
    sessions: (first ?? []).map(({ allMessagesText: _, created, modified, ...rest }) => ({
      ...rest,
      created: ms(created),
      modified: ms(modified),
    })),
    build: VERSION_LINE,
    widths: measuredWidths(),
  };
  try {
    await ctx.fs.mkdir(defaultCacheDir(ctx.deps.storage), { recursive: true });
    await ctx.fs.writeAtomic(file, new TextEncoder().encode(JSON.stringify(page)));
  } catch {
    // A cache that cannot be written only costs the next start its head start.
  }
}
