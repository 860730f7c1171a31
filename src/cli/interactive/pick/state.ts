/**
 * The session picker (pi's /resume) as a pure reducer: keys in, state out. Loading, renames
 * and deletes are effects the state asks for; their results come back through the updaters
 * at the bottom (`sessionsLoaded`, `sessionRenamed`, …).
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";
import { resolvePath } from "../../../core/storage/paths.ts";
import { chord, type Key } from "../keys.ts";
import { editLine } from "../line-input.ts";
import type { PromptState } from "../prompt.ts";
import { searchSessions, type TextMatch, textTestKey, textTestsOf } from "../../../query/resume-search.ts";
import { flatRows, type PickRow, threadRows } from "./threads.ts";

/** Current folder, or every project. */
export type Scope = "current" | "all";
/** pi's Ctrl+S cycle. */
export type SortMode = "threaded" | "recent" | "relevance";
const SORTS: readonly SortMode[] = ["threaded", "recent", "relevance"];

/** The sessions of one scope, as far as they are loaded. */
export interface ScopeList {
  sessions: SessionInfo[];
  loaded: number;
  /** Files to read; unknown until the folder is listed. */
  total?: number;
  done: boolean;
}

/**
 * A scan of the message texts for a query's text tests (`textTestsOf`), as far as it got: the
 * paths of the sessions that passed each test, by `textTestKey`.
 */
export interface TextScan {
  scope: Scope;
  /** The tests' keys, one per line: what tells scans apart. */
  tests: string;
  found: ReadonlyMap<string, ReadonlySet<string>>;
  scanned: number;
  total?: number;
  done: boolean;
}

export type PickEffect =
  | { kind: "load"; scope: Scope }
  | { kind: "texts"; scope: Scope; query: string }
  | { kind: "rename"; path: string; name: string }
  | { kind: "delete"; path: string };

/** Browsing, typing a new name, or confirming a delete. */
export type PickMode = { kind: "list" } | { kind: "rename"; path: string; input: string } | { kind: "delete"; path: string };

export interface PickState extends PromptState<PickEffect, SessionInfo> {
  scope: Scope;
  lists: Partial<Record<Scope, ScopeList>>;
  query: string;
  sort: SortMode;
  namedOnly: boolean;
  showPath: boolean;
  /** What the list shows now (derived from the fields above). */
  rows: PickRow[];
  /** Why the query matches nothing (an invalid `re:` pattern). */
  queryError?: string;
  selected: number;
  /** The session the user moved to; it stays selected while lists refresh. */
  selectedPath?: string;
  mode: PickMode;
  status?: { text: string; error: boolean };
  /** Rows per page (PageUp/PageDown) and on screen. */
  pageSize: number;
  /** Base for comparing `parentSession` paths. */
  processCwd: string;
  /**
   * Where message texts are searched: each session's own `allMessagesText` ("memory"), or
   * ("scan") sessions listed without them, their texts scanned for each query (`texts` effects).
   */
  texts: "memory" | "scan";
  /** With `texts: "scan"`: the scan for the current query and scope. */
  textScan?: TextScan;
}

/** A picker that starts loading `scope`. */
export function initialPickState(options: { scope: Scope; processCwd: string; pageSize?: number; known?: SessionInfo[]; texts?: PickState["texts"] }): PickState {
  return refresh({
    scope: options.scope,
    lists: { [options.scope]: { sessions: options.known ?? [], loaded: 0, done: false } },
    query: "",
    sort: "threaded",
    namedOnly: false,
    showPath: false,
    rows: [],
    selected: 0,
    mode: { kind: "list" },
    pageSize: options.pageSize ?? 10,
    processCwd: options.processCwd,
    texts: options.texts ?? "memory",
    effects: [{ kind: "load", scope: options.scope }],
  });
}

/** pi's test for a named session: a name with something other than whitespace. */
export function hasName(session: SessionInfo): boolean {
  return Boolean(session.name?.trim());
}

/** With `texts: "scan"`, the answers of the scan so far (a session not found yet does not pass). */
function scannedTexts(state: PickState): TextMatch | undefined {
  if (state.texts === "memory") return undefined;
  const scan = state.textScan;
  return (session, test) => scan?.found.get(textTestKey(test))?.has(session.path) ?? false;
}

/**
 * With `texts: "scan"`: asks for a scan of the texts when the query's text tests or the scope
 * changed (none for a query without any).
 */
function scanTexts(state: PickState): PickState {
  if (state.texts === "memory") return state;
  const tests = textTestsOf(state.query).map(textTestKey).join("\n");
  if (!tests) return state.textScan ? { ...state, textScan: undefined } : state;
  if (state.textScan?.tests === tests && state.textScan.scope === state.scope) return state;
  const textScan: TextScan = { scope: state.scope, tests, found: new Map(), scanned: 0, done: false };
  return { ...state, textScan, effects: [...state.effects, { kind: "texts", scope: state.scope, query: state.query }] };
}

/** Recomputes the rows after the list, query, sort or filter changed, keeping the selection. */
export function refresh(state: PickState): PickState {
  let sessions = state.lists[state.scope]?.sessions ?? [];
  if (state.namedOnly) sessions = sessions.filter(hasName);
  let rows: PickRow[];
  let queryError: string | undefined;
  if (state.sort === "threaded" && !state.query.trim()) {
    rows = threadRows(sessions, (path) => resolvePath(state.processCwd, path));
  } else {
    const found = searchSessions(sessions, state.query, state.sort === "recent", scannedTexts(state));
    rows = flatRows(found.sessions);
    queryError = found.error;
  }
  const kept = state.selectedPath === undefined ? -1 : rows.findIndex((row) => row.session.path === state.selectedPath);
  const selected = kept >= 0 ? kept : Math.max(0, Math.min(state.selected, rows.length - 1));
  return { ...state, rows, queryError, selected };
}

function move(state: PickState, to: number): PickState {
  const selected = Math.max(0, Math.min(to, state.rows.length - 1));
  return { ...state, selected, selectedPath: state.rows[selected]?.session.path };
}

function withQuery(state: PickState, query: string): PickState {
  if (query === state.query) return state;
  // A new query shows the best match first, as pi does.
  return refresh(scanTexts({ ...state, query, selected: 0, selectedPath: undefined }));
}

function switchScope(state: PickState): PickState {
  const scope: Scope = state.scope === "current" ? "all" : "current";
  if (state.lists[scope]) return refresh(scanTexts({ ...state, scope }));
  const list: ScopeList = { sessions: [], loaded: 0, done: false };
  return refresh(scanTexts({ ...state, scope, lists: { ...state.lists, [scope]: list }, effects: [...state.effects, { kind: "load", scope }] }));
}

function reduceRename(state: PickState, mode: Extract<PickMode, { kind: "rename" }>, key: Key): PickState {
  const name = chord(key);
  if (name === "escape") return { ...state, mode: { kind: "list" } };
  if (name === "enter") {
    const value = mode.input.trim();
    // pi ignores an empty name; an unchanged one needs no write.
    const current = state.rows.find((row) => row.session.path === mode.path)?.session.name;
    if (!value || value === current) return { ...state, mode: { kind: "list" } };
    return { ...state, mode: { kind: "list" }, effects: [...state.effects, { kind: "rename", path: mode.path, name: value }] };
  }
  const input = editLine(mode.input, key);
  return input === undefined ? state : { ...state, mode: { ...mode, input } };
}

/**
 * The picker after one key (INTERACTIVE.md: Up/Down, PageUp/PageDown, Enter, Escape, Tab,
 * Ctrl+S/N/P/R/D, typing edits the query).
 */
export function reducePick(state: PickState, key: Key): PickState {
  const { mode } = state;
  if (state.status) state = { ...state, status: undefined };
  if (mode.kind === "rename") return reduceRename(state, mode, key);
  if (mode.kind === "delete") {
    // Enter confirms; any other key cancels.
    const effects = chord(key) === "enter" ? [...state.effects, { kind: "delete" as const, path: mode.path }] : state.effects;
    return { ...state, mode: { kind: "list" }, effects };
  }
  const current = state.rows[state.selected]?.session;
  switch (chord(key)) {
    case "escape":
    case "ctrl+c":
      return { ...state, exit: { kind: "cancel" } };
    case "enter":
      return current ? { ...state, exit: { kind: "done", value: current } } : state;
    case "up":
      return move(state, state.selected - 1);
    case "down":
      return move(state, state.selected + 1);
    case "pageup":
      return move(state, state.selected - state.pageSize);
    case "pagedown":
      return move(state, state.selected + state.pageSize);
    case "tab":
      return switchScope(state);
    case "ctrl+s":
      return refresh({ ...state, sort: SORTS[(SORTS.indexOf(state.sort) + 1) % SORTS.length] });
    case "ctrl+n":
      return refresh({ ...state, namedOnly: !state.namedOnly });
    case "ctrl+p":
      return { ...state, showPath: !state.showPath };
    case "ctrl+r":
      return current ? { ...state, mode: { kind: "rename", path: current.path, input: current.name ?? "" } } : state;
    case "ctrl+d":
      return current ? { ...state, mode: { kind: "delete", path: current.path } } : state;
  }
  const query = editLine(state.query, key);
  return query === undefined ? state : withQuery(state, query);
}

/** Loading progress of `scope`: the sessions read so far (or all of them, with `done`). */
export function sessionsLoaded(state: PickState, scope: Scope, list: ScopeList): PickState {
  const next = { ...state, lists: { ...state.lists, [scope]: list } };
  return scope === state.scope ? refresh(next) : next;
}

function replaceSession(state: PickState, path: string, update: (sessions: SessionInfo[]) => SessionInfo[]): PickState {
  const lists: PickState["lists"] = {};
  for (const scope of ["current", "all"] as const) {
    const list = state.lists[scope];
    if (list) lists[scope] = list.sessions.some((s) => s.path === path) ? { ...list, sessions: update(list.sessions) } : list;
  }
  return refresh({ ...state, lists });
}

/** Progress of a scan of the texts: taken while it is the scan of the current query and scope. */
export function textsScanned(state: PickState, scan: TextScan): PickState {
  if (state.textScan?.tests !== scan.tests || state.textScan.scope !== scan.scope) return state;
  return refresh({ ...state, textScan: scan });
}

/** A rename was written: the session's fresh info replaces the old one. */
export function sessionRenamed(state: PickState, info: SessionInfo): PickState {
  const next = replaceSession(state, info.path, (sessions) => sessions.map((s) => (s.path === info.path ? info : s)));
  return { ...next, status: { text: `Renamed to "${info.name ?? ""}"`, error: false } };
}

/** A session left the disk (`text` says where it went). */
export function sessionDeleted(state: PickState, path: string, text: string): PickState {
  const next = replaceSession(state, path, (sessions) => sessions.filter((s) => s.path !== path));
  return { ...next, selectedPath: undefined, status: { text, error: false } };
}

/** An effect failed; the message shows in place of the hints until the next key. */
export function effectFailed(state: PickState, text: string): PickState {
  return { ...state, status: { text, error: true } };
}
