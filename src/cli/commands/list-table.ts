/**
 * The table `list` prints: its columns and cells, laid out over the whole listing, and printed
 * from the catalog's rows (src/query/list-rows.ts): where every known session is listed, from
 * one read in order, its rows held (not their lines); else in two reads, one by id to measure
 * the columns and one to print. No more than a piece of the table's text is held at a time.
 * @module
 */
import type { OrderedColumns, OrderedRow } from "../../catalog/list-row.ts";
import { collectGarbage } from "../../io/collect-garbage.ts";
import { GarbagePacer } from "../../io/garbage-pacer.ts";
import { tildePath } from "../../core/storage/paths.ts";
import type { ListedRows } from "../../query/list-rows.ts";
import type { Colors } from "../../render/colors.ts";
import { oneLine } from "../../render/control-chars.ts";
import { textWidth } from "../../render/text-width.ts";
import { prefixLengthsAt, SortedPrefixes } from "../../render/unique-prefix.ts";
import { relativeAge } from "../output/age.ts";
import { type Column, columnWidths, tableLine, tableLines, unmeasuredColumn, widthCap } from "../output/table.ts";

/** Rows printed between two hints to collect garbage. */
const GC_EVERY = 4096;

/** Lines are printed in pieces of about this many characters (one write per line was 25,000 writes). */
const PIECE = 65536;

/** Text of printable ASCII alone: as many cells wide as it is long, and left as it is by `oneLine`. */
const PLAIN = /^[ -~]*$/;

/** The columns: age, messages, id, (with `all`) cwd, and the name or first message. */
export function listColumns(c: Colors, all: boolean): Column[] {
  return [{ right: true, style: c.dim }, { right: true }, { style: c.cyan }, ...(all ? [{ style: c.dim, shrink: true, cutStart: true }] : []), { flex: true }];
}

/** What a row of the table shows of a session. */
export type ListedSession = Pick<OrderedRow, "modified" | "messages" | "cwd" | "name" | "first">;

/** The cells of one session's row; `short` is its printed id. */
export function listCells(s: ListedSession, short: string, now: Date, home: string, all: boolean): string[] {
  // Ids and cwds come from the file: control characters never reach the terminal.
  const row = [relativeAge(new Date(s.modified ?? NaN), now), String(s.messages), oneLine(short)];
  if (all) row.push(oneLine(tildePath(s.cwd, home)));
  row.push(oneLine(s.name ?? s.first));
  return row;
}

/** Writes `lines` through `write` in pieces; gives how many lines. */
export function writeLines(lines: Iterable<string>, write: (text: string) => void): number {
  let piece = "";
  let count = 0;
  for (const line of lines) {
    piece += line + "\n";
    count++;
    if (piece.length >= PIECE) {
      write(piece);
      piece = "";
    }
  }
  if (piece !== "") write(piece);
  return count;
}

/** `items` through `f`, one at a time. */
export function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** Prints the table of `sessions` (held: a page, or a listing made without rows), each with its printed id. */
export function printTable(sessions: readonly (ListedSession & { short: string })[], all: boolean, to: TableTarget): void {
  const columns = listColumns(to.colors, all);
  writeLines(tableLines(sessions.map((s) => listCells(s, s.short, to.now, to.home, all)), columns, to.width), to.write);
}

/** Where the table goes and how it looks. */
export interface TableTarget {
  colors: Colors;
  width: number;
  now: Date;
  home: string;
  write: (text: string) => void;
  /** Writes UTF-8 bytes as they are (valid only during the call); absent: bytes are written as `write`'s text. */
  writeBytes?: (bytes: Uint8Array) => void;
}

/** A cache of `make` by key, for the cells that recur across rows (cwds). */
function cached<K, V>(make: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) values.set(key, value = make(key));
    return value;
  };
}

/** Rows held in order, what a table prints of them only: a few arrays, not an object per row. */
interface HeldRows {
  ids: string[];
  /** The rows in order, each in one object made anew for the next (the title as the name). */
  rows(): Iterable<ListedSession & { id: string }>;
}

/** Holds `rows` (each given to `measure` first): their ids, titles, times, counts and (shared) cwds. */
function holdRows(rows: Iterable<OrderedRow>, measure: (row: ListedSession) => void): HeldRows {
  const ids: string[] = [];
  const titles: string[] = [];
  const cwds: string[] = [];
  const modified: number[] = [];
  const messages: number[] = [];
  const shared = new Map<string, string>();
  const pacer = new GarbagePacer({ everyItems: GC_EVERY, itemsYoung: true });
  for (const row of rows) {
    measure(row);
    ids.push(row.id);
    titles.push(row.name ?? row.first);
    let cwd = shared.get(row.cwd);
    if (cwd === undefined) shared.set(row.cwd, cwd = row.cwd);
    cwds.push(cwd);
    modified.push(row.modified);
    messages.push(row.messages);
    pacer.item();
  }
  return heldColumns({ ids, cwds, titles, modified, messages });
}

/** Rows held as columns (each given to `measure` first, where one is). */
function heldColumns(columns: OrderedColumns, measure?: (row: ListedSession) => void): HeldRows {
  const { ids, cwds, titles, modified, messages } = columns;
  if (measure) {
    const row = { modified: 0, messages: 0, cwd: "", name: "" as string | null, first: "" };
    for (let i = 0; i < ids.length; i++) {
      row.modified = modified[i];
      row.messages = messages[i];
      row.cwd = cwds[i];
      row.name = titles[i];
      measure(row);
    }
  }
  return {
    ids,
    *rows() {
      const row = { id: "", modified: 0, messages: 0, cwd: "", name: "" as string | null, first: "" };
      for (let i = 0; i < ids.length; i++) {
        row.id = ids[i];
        row.modified = modified[i];
        row.messages = messages[i];
        row.cwd = cwds[i];
        row.name = titles[i];
        yield row;
      }
    },
  };
}

/**
 * Prints the table of every listed session of `listed` (no `limit`): the short ids and each
 * column's widest cell, from the rows in order, held, where every known session is listed (one
 * read: the 25,000 rows of `--all` held cost 9 MB, a second read 10% more CPU), else from a
 * first read by id (or, given the `shorts` of the ids listed, from a first read of the rows
 * listed); then the rows in order, in pieces.
 * Gives how many sessions were printed (nothing is printed for none). The same lines as `printTable`.
 */
export function printListedTable(listed: ListedRows, all: boolean, to: TableTarget, shorts?: ReadonlyMap<string, string>): number {
  const columns = listColumns(to.colors, all);
  const unmeasured = unmeasuredColumn(columns, to.width);
  const last = columns.length - 1;
  const titled = unmeasured !== last;
  const cap = widthCap(columns, to.width);
  const widest = columns.map(() => 0);
  // Ages are made anew in each pass (a few operations on a number): a cache of 25,000 of them cost more.
  const ageOf = (modified: number) => relativeAge(new Date(modified), to.now);
  const cwd = cached((path: string) => {
    const text = oneLine(tildePath(path, to.home));
    return [text, textWidth(text)] as const;
  });
  let count = 0;
  let mostMessages = 0;
  const measure = (row: ListedSession): void => {
    // An age is ASCII (relativeAge): as wide as it is long.
    widest[0] = Math.max(widest[0], ageOf(row.modified).length);
    mostMessages = Math.max(mostMessages, row.messages);
    if (all) widest[3] = Math.max(widest[3], cwd(row.cwd)[1]);
    // The title is measured only where it can be the widest (no cell is wider than twice its length) and matters (below `cap`).
    const title = row.name ?? row.first;
    if (titled && widest[last] < cap && 2 * title.length > widest[last]) {
      widest[last] = Math.min(cap, Math.max(widest[last], textWidth(oneLine(title))));
    }
  };
  // Every known session listed (`--all`, unfiltered): one read, in order, held until printed
  // (as columns, read at once where the store can), and the short ids' lengths by the rows' places.
  const held = listed.listed !== undefined ? undefined : listed.columns ? heldColumns(listed.columns(), measure) : holdRows(listed.rows(false), measure);
  /** The printed id's length, by the row's place (`held`) or by id. */
  let lengthAt: number[] | undefined;
  let lengthOf: Map<string, number> | undefined;
  // A printable ASCII prefix is as wide as it is long.
  const widen = (id: string, length: number) => {
    widest[2] = Math.max(widest[2], PLAIN.test(id) ? length : textWidth(oneLine(id.slice(0, length))));
  };
  if (held) {
    count = held.ids.length;
    lengthAt = prefixLengthsAt(held.ids);
    for (let i = 0; i < count; i++) widen(held.ids[i], lengthAt[i]);
  } else if (shorts) {
    // The short ids found already (`shortIdsOf`): the rows alone are read.
    for (const row of listed.rows(false, false)) {
      count++;
      measure(row);
    }
    lengthOf = new Map();
    for (const [id, short] of shorts) {
      lengthOf.set(id, short.length);
      widen(id, short.length);
    }
  } else {
    const prefixes = new SortedPrefixes();
    // One project's sessions: its rows measured, then the ids of every known session alone for
    // the short ids (a project of 80 sessions among 25,000 read every session's row by id: 100
    // ms). Every project's, filtered: one read by id (the rows in order and the ids, 100 ms more).
    const ids = all ? undefined : listed.ids?.();
    if (ids) {
      const shown = new Set<string>();
      for (const row of listed.rows(false, false)) {
        shown.add(row.id);
        count++;
        measure(row);
      }
      for (const id of ids) prefixes.push(id, shown.has(id));
    } else {
      // Else a first read by id: the short ids among every known session, and the widest cells of those listed.
      const isListed = listed.listed;
      for (const row of listed.byId(titled)) {
        const shown = isListed === undefined || isListed(row);
        prefixes.push(row.id, shown);
        if (!shown) continue;
        count++;
        measure(row);
      }
    }
    lengthOf = prefixes.end();
    // By forEach, not for…of: no [id, length] pair per id.
    lengthOf.forEach((length, id) => widen(id, length));
  }
  if (count === 0) return 0;
  // Counts are whole numbers from 0 on: the largest is the widest.
  widest[1] = String(mostMessages).length;
  const widths = columnWidths(widest, columns, to.width);
  // The garbage of a first read (a row object per session) is let go before the second; rows
  // read as columns leave little (their arrays of values).
  if (!listed.columns && !shorts) collectGarbage();
  const cells: string[] = [];
  const cellWidths: number[] = [];
  let piece = "";
  const pacer = new GarbagePacer({ everyItems: GC_EVERY, itemsYoung: true });
  let at = 0;
  for (const row of held ? held.rows() : listed.rows(false)) {
    pacer.item();
    const age = ageOf(row.modified);
    const messages = String(row.messages);
    const short = oneLine(row.id.slice(0, lengthAt ? lengthAt[at++] : lengthOf!.get(row.id)));
    cells.length = cellWidths.length = 0;
    cells.push(age, messages, short);
    cellWidths.push(age.length, messages.length, textWidth(short));
    if (all) {
      const [text, width] = cwd(row.cwd);
      cells.push(text);
      cellWidths.push(width);
    }
    const title = oneLine(row.name ?? row.first);
    cells.push(title);
    cellWidths.push(titled ? textWidth(title) : 0);
    piece += tableLine(cells, cellWidths, columns, widths, to.width) + "\n";
    if (piece.length >= PIECE) {
      to.write(piece);
      piece = "";
    }
  }
  if (piece !== "") to.write(piece);
  return count;
}
