/**
 * Writes an old-format copy (version 1 or 2) of a current session, streaming (one line at a time,
 * never the whole file): the bench's `migrate` row on the 1.2 GB session needs a file that
 * really is migrated. Version 2: the header says 2 and `custom` message roles become
 * `hookMessage` again. Version 1: no version, entries lose `id` and `parentId` (a v1 file is one
 * line of entries, in file order), a compaction's `firstKeptEntryId` becomes the line index it
 * names (header = 0) and labels are left out (v1 had none).
 *
 *   npx tsx scripts/bench/old-session.ts SOURCE.jsonl OUT.jsonl --version 1|2
 */
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { forEachLine } from "./chain-session.ts";

type Json = Record<string, unknown>;

/** Writes `out` (via a temporary file renamed into place) as a version-`version` copy of `source`; returns its size. */
export function oldSession(source: string, out: string, version: 1 | 2): { bytes: number; entries: number } {
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  const lineOf = new Map<string, number>();
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  let entries = 0;
  const flush = () => {
    if (pending.length) writeSync(fd, pending.join(""));
    pending = [];
    pendingBytes = 0;
  };
  const emit = (object: Json) => {
    const line = `${JSON.stringify(object)}\n`;
    pending.push(line);
    pendingBytes += line.length;
    bytes += Buffer.byteLength(line);
    if (pendingBytes > 4 << 20) flush();
  };
  try {
    forEachLine(source, (text) => {
      const e = JSON.parse(text) as Json;
      if (e.type === "session") {
        const { version: _v, ...rest } = e;
        emit(version === 1 ? rest : { ...rest, version: 2 });
        return;
      }
      const message = e.message as Json | undefined;
      if (e.type === "message" && message?.role === "custom") e.message = { ...message, role: "hookMessage" };
      if (version === 2) {
        emit(e);
        entries++;
        return;
      }
      if (e.type === "label") return;
      const { id, parentId: _p, firstKeptEntryId, ...rest } = e;
      lineOf.set(String(id), entries + 1);
      if (e.type === "compaction" && typeof firstKeptEntryId === "string") rest.firstKeptEntryIndex = lineOf.get(firstKeptEntryId) ?? 0;
      emit(rest);
      entries++;
    });
    flush();
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, out);
  return { bytes, entries };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [source, out, flag, value] = process.argv.slice(2);
  if (!source || !out || flag !== "--version" || (value !== "1" && value !== "2")) {
    throw new Error("usage: old-session.ts SOURCE OUT --version 1|2");
  }
  const made = oldSession(resolve(source), resolve(out), Number(value) as 1 | 2);
  console.log(`${out}: ${(made.bytes / 1e6).toFixed(1)} MB, ${made.entries} entries, version ${value}`);
}
