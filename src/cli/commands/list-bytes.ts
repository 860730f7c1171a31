/**
 * `list`'s table of every session where the titles are printed as they are (a pipe or a file:
 * no width, so the last column is not measured), from rows whose titles are bytes
 * (`TableColumns`): each line is its cells before the title, laid out by `tableLine` as
 * `printListedTable` lays them, then the title's bytes copied after them into the output's own
 * bytes. No title becomes a string unless it needs `oneLine` or `trimEnd` (a control character,
 * a last character that is not ASCII): at 25,000 sessions they were 8.8 MB of strings and a
 * second copy in every line made of them. The same bytes as `printListedTable`.
 * @module
 */
import type { TableColumns } from "../../catalog/list-row.ts";
import { tildePath } from "../../core/storage/paths.ts";
import type { ListedRows } from "../../query/list-rows.ts";
import { oneLine } from "../../render/control-chars.ts";
import { pad, textWidth } from "../../render/text-width.ts";
import { prefixLengthsAt } from "../../render/unique-prefix.ts";
import { ageCode, ageText } from "../output/age.ts";
import { columnWidths, tableLine, unmeasuredColumn } from "../output/table.ts";
import { listColumns, type TableTarget } from "./list-table.ts";

/** Output bytes gathered before a write (as `printListedTable`'s pieces of text). */
const PIECE = 65536;

/** A printable ASCII text: as many cells wide as it is long, and left as it is by `oneLine`. */
const PLAIN = /^[ -~]*$/;

/**
 * Prints the table of `listed` from its rows with their titles as bytes, where every known
 * session is listed, the titles are not measured (`to.width` is unbounded) and the store gives
 * such rows; gives how many sessions were printed (nothing for none), or undefined (nothing
 * printed) where it cannot: print with `printListedTable`.
 */
export function printTableBytes(listed: ListedRows, all: boolean, to: TableTarget): number | undefined {
  const columns = listColumns(to.colors, all);
  const last = columns.length - 1;
  if (listed.listed !== undefined || !listed.tableColumns || unmeasuredColumn(columns, to.width) !== last) return undefined;
  const table = listed.tableColumns();
  if (!table) return undefined;
  const count = table.ids.length;
  if (count === 0) return 0;
  return printColumns(table, columns, all, to);
}

function printColumns(table: TableColumns, columns: ReturnType<typeof listColumns>, all: boolean, to: TableTarget): number {
  const { ids, cwds, modified, messages, order, titles, chunk, start, end } = table;
  const count = ids.length;
  const nowMs = to.now.getTime();
  const cwdCells = new Map<string, CwdCell>();
  const cwdCell = (path: string) => {
    let cell = cwdCells.get(path);
    if (cell === undefined) {
      const text = oneLine(tildePath(path, to.home));
      cwdCells.set(path, cell = { text, width: textWidth(text), bytes: undefined });
    }
    return cell;
  };
  // Ages by their code (a few dozen of them): no string per session.
  const ages = new Map<number, string>();
  const ageOf = (ms: number) => {
    const code = ageCode(ms, nowMs);
    let text = ages.get(code);
    if (text === undefined) ages.set(code, text = ageText(code));
    return text;
  };
  const widest = columns.map(() => 0);
  let mostMessages = 0;
  for (let i = 0; i < count; i++) {
    // An age is ASCII (relativeAge): as wide as it is long.
    widest[0] = Math.max(widest[0], ageOf(modified[i]).length);
    mostMessages = Math.max(mostMessages, messages[i]);
    if (all) widest[3] = Math.max(widest[3], cwdCell(cwds[i]).width);
  }
  const lengthAt = prefixLengthsAt(ids);
  const plainId: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    plainId.push(PLAIN.test(id));
    widest[2] = Math.max(widest[2], plainId[i] ? lengthAt[i] : textWidth(oneLine(id.slice(0, lengthAt[i]))));
  }
  // Counts are whole numbers from 0 on: the largest is the widest.
  widest[1] = String(mostMessages).length;
  const widths = columnWidths(widest, columns, to.width);
  const out = new LineBytes(to);
  // Without colours every cell before the title is its text padded: put byte by byte.
  const bare = !to.colors.isColorSupported;
  const cells: string[] = [];
  const cellWidths: number[] = [];
  for (const i of order) {
    const bytes = titles[chunk[i]];
    const age = ageOf(modified[i]);
    const titleBytes = end[i] - start[i];
    const fast = bare && plainId[i] && Number.isSafeInteger(messages[i]) && messages[i] >= 0;
    const cell = all ? cwdCell(cwds[i]) : undefined;
    let head = "";
    // Room for the whole line first: a line is never cut between two pieces, and can be taken back.
    if (fast) {
      if (cell) cell.bytes ??= new TextEncoder().encode(pad(cell.text, widths[3], false, cell.width) + "  ");
      out.room(widths[0] + widths[1] + widths[2] + 6 + (cell?.bytes?.length ?? 0) + titleBytes + 1);
    } else {
      cells.length = cellWidths.length = 0;
      pushCells(cells, cellWidths, age, messages[i], oneLine(ids[i].slice(0, lengthAt[i])), cell);
      // The line with a one-character title that `tableLine` leaves as it is: its cells before the title.
      cells.push("x");
      cellWidths.push(0);
      head = tableLine(cells, cellWidths, columns, widths, to.width).slice(0, -1);
      out.room(3 * head.length + titleBytes + 1);
    }
    const lineAt = out.at;
    if (fast) {
      out.spaces(widths[0] - age.length);
      out.ascii(age, age.length);
      out.spaces(2);
      out.count(messages[i], widths[1]);
      out.spaces(2);
      out.ascii(ids[i], lengthAt[i]);
      out.spaces(widths[2] - lengthAt[i] + 2);
      if (cell?.bytes) out.copy(cell.bytes, 0, cell.bytes.length);
    } else out.text(head);
    if (out.plainTitle(bytes, start[i], end[i])) {
      out.newline();
      continue;
    }
    // A title that needs its text: the line as `printListedTable` makes it, in place of the cells put.
    out.at = lineAt;
    cells.length = cellWidths.length = 0;
    pushCells(cells, cellWidths, age, messages[i], oneLine(ids[i].slice(0, lengthAt[i])), cell);
    cells.push(oneLine(out.decode(bytes.subarray(start[i], end[i]))));
    cellWidths.push(0);
    out.text(tableLine(cells, cellWidths, columns, widths, to.width));
    out.newline();
  }
  out.flush();
  return count;
}

/** The cells before the title, and their widths, as `printListedTable` makes them. */
function pushCells(cells: string[], widths: number[], age: string, messages: number, short: string, cwd: CwdCell | undefined): void {
  const total = String(messages);
  cells.push(age, total, short);
  widths.push(age.length, total.length, textWidth(short));
  if (cwd) {
    cells.push(cwd.text);
    widths.push(cwd.width);
  }
}

/** A cwd's cell: its text, its width, and (made on first use) its bytes padded and followed by the separator. */
interface CwdCell {
  text: string;
  width: number;
  bytes: Uint8Array | undefined;
}

/** The output's bytes, written in pieces of about `PIECE`. */
class LineBytes {
  #to: TableTarget;
  #out = new Uint8Array(PIECE);
  #encoder = new TextEncoder();
  #decoder = new TextDecoder();
  at = 0;

  constructor(to: TableTarget) {
    this.#to = to;
  }

  decode(bytes: Uint8Array): string {
    return this.#decoder.decode(bytes);
  }

  flush(): void {
    if (this.at === 0) return;
    const piece = this.#out.subarray(0, this.at);
    if (this.#to.writeBytes) this.#to.writeBytes(piece);
    else this.#to.write(this.#decoder.decode(piece));
    this.at = 0;
  }

  /** Room for `bytes` more, written out first where they would not fit (and more room for a line longer than a piece). */
  room(bytes: number): void {
    if (this.at + bytes <= this.#out.length) return;
    this.flush();
    if (bytes > this.#out.length) this.#out = new Uint8Array(bytes);
  }

  spaces(n: number): void {
    for (let k = 0; k < n; k++) this.#out[this.at++] = 0x20;
  }

  /** The first `length` characters of ASCII `text`. */
  ascii(text: string, length: number): void {
    for (let k = 0; k < length; k++) this.#out[this.at++] = text.charCodeAt(k);
  }

  /** Whole number `n`, right-aligned in `width` characters. */
  count(n: number, width: number): void {
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.spaces(width - digits);
    for (let k = this.at + digits - 1, rest = n; k >= this.at; k--, rest = Math.floor(rest / 10)) this.#out[k] = 0x30 + (rest % 10);
    this.at += digits;
  }

  copy(bytes: Uint8Array, start: number, end: number): void {
    for (let k = start; k < end; k++) this.#out[this.at++] = bytes[k];
  }

  newline(): void {
    this.#out[this.at++] = 0x0a;
  }

  /** `text`: its ASCII characters one by one, the rest encoded (the caller made room for 3 bytes a character). */
  text(text: string): void {
    this.room(3 * text.length + 1);
    let i = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      this.#out[this.at++] = c;
    }
    if (i < text.length) this.at += this.#encoder.encodeInto(text.slice(i), this.#out.subarray(this.at)).written;
  }

  /**
   * Copies title bytes that print as they are (`plainTitle`'s test), true; else false, and what
   * was copied of them is to be taken back by the caller.
   */
  plainTitle(bytes: Uint8Array, start: number, end: number): boolean {
    if (end === start || bytes[end - 1] <= 0x20 || bytes[end - 1] >= 0x7f) return false;
    const out = this.#out;
    let at = this.at;
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b < 0x20 || b === 0x7f) return false;
      if (b === 0xc2 && bytes[i + 1] <= 0x9f) return false;
      if (b === 0xe2) {
        const next = bytes[i + 1];
        const last = bytes[i + 2];
        if ((next === 0x80 && last >= 0xaa && last <= 0xae) || (next === 0x81 && last >= 0xa6 && last <= 0xa9)) return false;
      }
      out[at++] = b;
    }
    this.at = at;
    return true;
  }
}
