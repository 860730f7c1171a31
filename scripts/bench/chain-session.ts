/**
 * Makes a huge session by streaming concatenation of a valid one: the source's entries are copied
 * again and again ("chained copies") until the output reaches a target size, never holding more
 * than one chunk of either file in memory. Copy k's ids are remapped to fresh 8-hex ids (kept
 * unique across the whole output), so every reference (`parentId`, a label's `targetId`, a
 * compaction's `firstKeptEntryId`, a branch summary's `fromId`) still points inside its own copy;
 * the root of copy k hangs off the last entry of copy k-1, and timestamps move forward by the
 * source's time span per copy. The output stops at a line boundary once it reaches the target, so
 * the last copy may be partial (still valid: entries only point backwards).
 *
 *   npx tsx scripts/bench/chain-session.ts SOURCE.jsonl OUT.jsonl --mb 1200 [--cwd DIR] [--id ID]
 */
import { closeSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

type Json = Record<string, unknown>;

export interface ChainOptions {
  /** Stop after the first line that brings the output to at least this many bytes. */
  targetBytes: number;
  /** The new header's session id, `cwd` and timestamp (ms). */
  sessionId: string;
  cwd?: string;
  created?: number;
}

export interface ChainInfo {
  bytes: number;
  entries: number;
  copies: number;
}

const REF_FIELDS = ["id", "parentId", "targetId", "firstKeptEntryId", "fromId"] as const;

/** Calls `onLine` for every line of `path` (without its line break), reading 4 MB at a time. */
export function forEachLine(path: string, onLine: (line: string) => boolean | void): void {
  const fd = openSync(path, "r");
  const buf = Buffer.allocUnsafe(4 << 20);
  const decoder = new TextDecoder();
  let rest = "";
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const text = rest + decoder.decode(buf.subarray(0, n), { stream: n > 0 });
      const lines = text.split("\n");
      rest = n > 0 ? (lines.pop() ?? "") : "";
      for (const line of lines) {
        if (line.trim() !== "" && onLine(line.replace(/\r$/, "")) === false) return;
      }
      if (n === 0) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** The first and last entry timestamps (ms) of `path` and its number of entries. */
function span(path: string): { first: number; last: number; entries: number } {
  let first = Number.NaN;
  let last = Number.NaN;
  let entries = 0;
  forEachLine(path, (line) => {
    const e = JSON.parse(line) as Json;
    if (e.type === "session") return;
    entries++;
    const t = Date.parse(String(e.timestamp));
    if (Number.isNaN(first)) first = t;
    last = t;
  });
  return { first, last, entries };
}

/** Writes `out` (via a temporary file renamed into place) from chained copies of `source`. */
export function chainSession(source: string, out: string, opts: ChainOptions): ChainInfo {
  const { first, last, entries: perCopy } = span(source);
  if (perCopy === 0) throw new Error(`${source} has no entries to chain`);
  const shift = last - first + 60_000;
  const used = new Set<string>();
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let entries = 0;
  let copies = 0;
  let tail: string | null = null;
  const flush = () => {
    if (pending.length) writeSync(fd, pending.join(""));
    pending = [];
    pendingBytes = 0;
  };
  const emit = (obj: Json) => {
    const line = `${JSON.stringify(obj)}\n`;
    const size = Buffer.byteLength(line);
    pending.push(line);
    pendingBytes += size;
    bytes += size;
    if (pendingBytes > 4 << 20) flush();
  };
  try {
    let done = false;
    for (let k = 0; !done; k++) {
      copies = k + 1;
      const ids = new Map<string, string>();
      const fresh = (old: string): string => {
        let n = (Number.parseInt(old.slice(0, 8), 16) + Math.imul(k, 0x9e3779b1)) >>> 0;
        let id = n.toString(16).padStart(8, "0");
        while (used.has(id)) id = (n = (n + 1) >>> 0).toString(16).padStart(8, "0");
        used.add(id);
        ids.set(old, id);
        return id;
      };
      forEachLine(source, (line) => {
        const e = JSON.parse(line) as Json;
        if (e.type === "session") {
          if (k === 0) {
            emit({ ...e, id: opts.sessionId, timestamp: new Date(opts.created ?? Date.parse(String(e.timestamp))).toISOString(), ...(opts.cwd ? { cwd: opts.cwd } : {}) });
          }
          return;
        }
        for (const field of REF_FIELDS) {
          const v = e[field];
          if (typeof v !== "string") continue;
          e[field] = field === "id" ? fresh(v) : (ids.get(v) ?? v);
        }
        if (e.parentId === null && tail !== null) e.parentId = tail;
        if (k > 0) {
          e.timestamp = new Date(Date.parse(String(e.timestamp)) + k * shift).toISOString();
          const m = e.message as Json | undefined;
          if (m && typeof m.timestamp === "number") m.timestamp += k * shift;
        }
        emit(e);
        entries++;
        if (bytes >= opts.targetBytes) {
          done = true;
          return false;
        }
      });
      // The copy's last entry (the main line's tip in the bench session) roots the next copy.
      tail = [...ids.values()].at(-1) ?? tail;
    }
    flush();
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, out);
  return { bytes, entries, copies };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [source, out, ...rest] = process.argv.slice(2);
  let mb = 1200;
  let cwd: string | undefined;
  let id: string = crypto.randomUUID();
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--mb") mb = Number(rest[++i]);
    else if (rest[i] === "--cwd") cwd = rest[++i];
    else if (rest[i] === "--id") id = rest[++i];
    else throw new Error(`unknown option ${rest[i]}`);
  }
  if (!source || !out) throw new Error("usage: chain-session.ts SOURCE OUT [--mb N] [--cwd DIR] [--id ID]");
  const info = chainSession(resolve(source), resolve(out), { targetBytes: mb * 1e6, sessionId: id, cwd });
  console.log(`${out}: ${(info.bytes / 1e6).toFixed(1)} MB, ${info.entries} entries, ${info.copies} copies`);
}
