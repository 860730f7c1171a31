/**
 * The catalog in plain files where there is no SQLite (Node 20): `<dir>/<section>-v<n>.jsonl`,
 * a format line, then one record per line. Saves take a lock, merge with the file as it is then
 * (another process may have saved meanwhile) and replace it atomically, so readers always see a
 * complete file.
 * @module
 */
import { LineSplitter } from "../core/read/line-splitter.ts";
import { stringEnd } from "../core/read/scan-keys.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { readBytes } from "../io/read-bytes.ts";
import { makePrivateDir } from "./private-files.ts";
import { joinPath } from "../core/storage/paths.ts";
import {
  type CatalogRecord,
  type CatalogStore,
  type FolderRecord,
  type FolderSnapshot,
  type SectionChanges,
  type SectionKey,
  type StoreDescription,
} from "./store.ts";
import { decodeState, encodeState, recordProblem } from "./stored-state.ts";

const FORMAT = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The file exists but cannot be read as a catalog section. */
export class CatalogCorruptError extends Error {
  constructor(path: string, reason: string) {
    super(`Cannot read the catalog file ${path}: ${reason}`);
    this.name = "CatalogCorruptError";
  }
}

type Row = [string, number, number, number, number, string, string, string | null, unknown, unknown?];

/** The file of the quick check's folders and full checks (see `FolderSnapshot`). */
const FOLDERS_FILE = "folders-v1.json";

/** A folders file's contents, or an empty snapshot when it is missing or not one (it is then rebuilt). */
function parseFolders(text: string): FolderSnapshot {
  const snapshot: FolderSnapshot = { folders: new Map(), fullChecks: new Map() };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return snapshot;
  }
  const { folders, fullChecks } = (value ?? {}) as { folders?: unknown; fullChecks?: unknown };
  if (!Array.isArray(folders) || typeof fullChecks !== "object" || fullChecks === null) return snapshot;
  for (const f of folders as FolderRecord[]) {
    const sound = typeof f?.path === "string" && Number.isFinite(f.mtimeMs) && Number.isFinite(f.listedMs) && Array.isArray(f.names) && f.names.every((n) => typeof n === "string");
    if (sound) snapshot.folders.set(f.path, { path: f.path, mtimeMs: f.mtimeMs, listedMs: f.listedMs, names: f.names });
  }
  for (const [section, at] of Object.entries(fullChecks)) if (Number.isFinite(at)) snapshot.fullChecks.set(section, at as number);
  return snapshot;
}

/** One record as a line of JSON, non-ASCII escaped: ASCII decodes several times faster (Node 20). */
function toLine(section: SectionKey, r: CatalogRecord): string {
  const row: Row = [r.path, r.size, r.mtimeMs, r.end, r.lines, r.headHash, r.tailHash, r.headerId, encodeState(section, r.state)];
  if (r.final) row.push(encodeState(section, r.final));
  return JSON.stringify(row).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The record of a line, or null when it does not parse or has the wrong shape (then it counts as missing). */
function fromLine(section: SectionKey, line: string): CatalogRecord | null {
  try {
    const row = JSON.parse(line) as Row;
    if (!Array.isArray(row) || row.length < 9) return null;
    const [path, size, mtimeMs, end, lines, headHash, tailHash, headerId, state, final] = row;
    const record = { path, size, mtimeMs, end, lines, headHash, tailHash, headerId, state: decodeState(section, state) } as CatalogRecord;
    if (final !== undefined && final !== null) record.final = decodeState(section, final);
    return recordProblem(section, record) === null ? record : null;
  } catch {
    return null;
  }
}

/** Bytes written per chunk of a save. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Lines gathered into chunks of about `CHUNK_BYTES` for a streamed write: a save never holds
 * the whole file (cold, that is every record's line). Buffers are reused once `written` says
 * the chunks taken so far are out.
 */
class LineChunks {
  #chunk: Uint8Array = new Uint8Array(CHUNK_BYTES);
  #at = 0;
  #full: Uint8Array[] = [];
  #lent: Uint8Array[] = [];
  #spare: Uint8Array[] = [];

  /** Adds a line and its newline; `line` is copied, so it may be a reused buffer. */
  add(line: Uint8Array): void {
    if (this.#at + line.length + 1 > CHUNK_BYTES) this.#cut();
    if (line.length + 1 > CHUNK_BYTES) {
      const own = new Uint8Array(line.length + 1);
      own.set(line);
      own[line.length] = 0x0a;
      this.#full.push(own);
      return;
    }
    this.#chunk.set(line, this.#at);
    this.#at += line.length;
    this.#chunk[this.#at++] = 0x0a;
  }

  /** The chunks filled since the last call. */
  take(): Uint8Array[] {
    const full = this.#full;
    this.#full = [];
    for (const chunk of full) if (chunk.buffer.byteLength === CHUNK_BYTES) this.#lent.push(new Uint8Array(chunk.buffer));
    return full;
  }

  /** Every chunk not taken yet, the last one partly filled. */
  end(): Uint8Array[] {
    this.#cut();
    return this.take();
  }

  /** The chunks taken so far have been written: their buffers may be filled again. */
  written(): void {
    this.#spare.push(...this.#lent);
    this.#lent = [];
  }

  #cut(): void {
    if (this.#at === 0) return;
    this.#full.push(this.#chunk.subarray(0, this.#at));
    this.#chunk = this.#spare.pop() ?? new Uint8Array(CHUNK_BYTES);
    this.#at = 0;
  }
}

function formatLine(section: SectionKey): string {
  return JSON.stringify({ catalog: "pi-session", format: FORMAT, section: section.name, version: section.version });
}

/** The path a record line starts with, read without parsing the rest of the line. */
function pathOfLine(bytes: Uint8Array): string {
  const end = bytes[0] === 0x5b ? stringEnd(bytes, 1) : -1;
  const path = end < 0 ? undefined : JSON.parse(decoder.decode(bytes.subarray(1, end)));
  if (typeof path !== "string") throw new SyntaxError("a record has the wrong shape");
  return path;
}

/**
 * A `CatalogStore` over any `FileSystem` (memory included). Loads stream the file a line at a
 * time, so the whole catalog is never held as text besides the records made from it.
 *
 * @example
 * ```ts
 * const store = new FileCatalogStore(new MemoryFileSystem(), "/cache/pi-session");
 * (await store.load({ name: "listing", version: 1 })).size; // 0
 * ```
 */
export class FileCatalogStore implements CatalogStore {
  readonly kind = "file";
  readonly supportsDocs = false;
  readonly location: string;
  #fs: FileSystem;
  #lockTimeoutMs: number;

  /** `lockTimeoutMs`: how long a save waits for another process's save (default 3 s). */
  constructor(fs: FileSystem, dir: string, options: { lockTimeoutMs?: number } = {}) {
    this.#fs = fs;
    this.location = dir;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 3000;
  }

  #file(section: SectionKey): string {
    return joinPath(this.location, `${section.name}-v${section.version}.jsonl`);
  }

  /**
   * Calls `onRecord` with the bytes of each record line of `section`'s file (valid during the
   * call only), pausing after each chunk read (a save writes out what it has made meanwhile).
   * A missing file, or one of another format or version (it is simply rebuilt), has no records.
   */
  async *#scanChunks(section: SectionKey, onRecord: (bytes: Uint8Array) => void): AsyncGenerator<void> {
    const path = this.#file(section);
    const stat = await this.#fs.stat(path);
    if (stat === null) return;
    // Set by the line callback: a cast keeps TypeScript from narrowing it to its first value.
    let format = "unread" as "unread" | "ours" | "other";
    const splitter = new LineSplitter((line) => {
      if (format === "ours") {
        try {
          return onRecord(line.bytes);
        } catch (error) {
          throw new CatalogCorruptError(path, `line ${line.number}: ${(error as Error).message}`);
        }
      }
      if (format === "other") return;
      let found: unknown;
      try {
        found = JSON.parse(decoder.decode(line.bytes));
      } catch {
        throw new CatalogCorruptError(path, "the first line is not the catalog's format line");
      }
      format = formatLine(section) === JSON.stringify(found) ? "ours" : "other";
    });
    for await (const chunk of this.#fs.read(path, { end: stat.size, reuseBuffer: true })) {
      splitter.push(chunk);
      if (format === "other") return;
      yield;
    }
    splitter.end();
    if (format === "unread") throw new CatalogCorruptError(path, "the file is empty");
  }

  /** `#scanChunks` without the pauses. */
  async #scan(section: SectionKey, onRecord: (bytes: Uint8Array) => void): Promise<void> {
    for await (const _ of this.#scanChunks(section, onRecord));
  }

  /**
   * The bytes of `section`'s file after `changes`: the format line, each stored line byte for
   * byte (or its replacement, in its place) unless removed, then the new records. With `keep`
   * false, the stored lines are left out (a corrupt file is replaced by the changes alone).
   */
  async *#merged(section: SectionKey, changes: SectionChanges, keep: boolean): AsyncGenerator<Uint8Array> {
    const out = new LineChunks();
    out.add(encoder.encode(formatLine(section)));
    const puts = new Map(changes.put.map((record) => [record.path, record]));
    const gone = new Set(changes.remove);
    const seen = new Set<string>();
    if (keep) {
      try {
        for await (const _ of this.#scanChunks(section, (bytes) => {
          const path = pathOfLine(bytes);
          if (gone.has(path) || seen.has(path)) return;
          seen.add(path);
          const put = puts.get(path);
          puts.delete(path);
          out.add(put ? encoder.encode(toLine(section, put)) : bytes);
        })) {
          yield* out.take();
          out.written();
        }
      } catch (error) {
        // Unreadable counts as corrupt here: either way the file is rebuilt from the changes.
        throw error instanceof CatalogCorruptError ? error : new CatalogCorruptError(this.#file(section), (error as Error).message);
      }
    }
    for (const record of puts.values()) {
      out.add(encoder.encode(toLine(section, record)));
      yield* out.take();
      out.written();
    }
    yield* out.end();
  }

  async load(section: SectionKey): Promise<Map<string, CatalogRecord>> {
    const records = new Map<string, CatalogRecord>();
    await this.#scan(section, (bytes) => {
      const record = fromLine(section, decoder.decode(bytes));
      if (record) records.set(record.path, record);
    });
    return records;
  }

  async save(section: SectionKey, changes: SectionChanges): Promise<void> {
    if (changes.put.length === 0 && changes.remove.length === 0) return;
    const path = this.#file(section);
    await makePrivateDir(this.#fs, this.location);
    await withFileLock(this.#fs, path, async () => {
      // Merge with the file as it is now (another process may have saved since we loaded),
      // streamed from the old file into the new one.
      try {
        await this.#fs.writeAtomic(path, this.#merged(section, changes, true));
      } catch (error) {
        if (!(error instanceof CatalogCorruptError)) throw error;
        await this.#fs.writeAtomic(path, this.#merged(section, changes, false));
      }
    }, { timeoutMs: this.#lockTimeoutMs });
  }

  async loadFolders(): Promise<FolderSnapshot> {
    const path = joinPath(this.location, FOLDERS_FILE);
    try {
      return parseFolders(decoder.decode(await readBytes(this.#fs, path)));
    } catch (error) {
      if (isFsError(error, "NotFound")) return { folders: new Map(), fullChecks: new Map() };
      throw error;
    }
  }

  async saveFolders(folders: readonly FolderRecord[], remove: readonly string[], fullChecks: ReadonlyMap<string, number>): Promise<void> {
    const path = joinPath(this.location, FOLDERS_FILE);
    await makePrivateDir(this.#fs, this.location);
    await withFileLock(this.#fs, path, async () => {
      // Merged with the file as it is now: another process may have saved other folders meanwhile.
      const current = await this.loadFolders();
      for (const f of folders) current.folders.set(f.path, f);
      for (const gone of remove) current.folders.delete(gone);
      for (const [section, at] of fullChecks) current.fullChecks.set(section, at);
      const text = JSON.stringify({ folders: [...current.folders.values()], fullChecks: Object.fromEntries(current.fullChecks) });
      await this.#fs.writeAtomic(path, encoder.encode(text));
    }, { timeoutMs: this.#lockTimeoutMs });
  }

  async clear(): Promise<void> {
    let names: string[] = [];
    try {
      names = (await this.#fs.list(this.location)).filter((e) => e.isFile && (e.name.endsWith(".jsonl") || e.name === FOLDERS_FILE)).map((e) => e.name);
    } catch (error) {
      if (!isFsError(error, "NotFound")) throw error;
    }
    for (const name of names) {
      try {
        await this.#fs.remove(joinPath(this.location, name));
      } catch (error) {
        // Another process cleared (or replaced) it first: gone is what was wanted.
        if (!isFsError(error, "NotFound")) throw error;
      }
    }
  }

  async describe(): Promise<StoreDescription> {
    const sections: StoreDescription["sections"] = [];
    let bytes = 0;
    let names: string[] = [];
    try {
      names = (await this.#fs.list(this.location)).filter((e) => e.isFile && /-v\d+\.jsonl$/.test(e.name)).map((e) => e.name).sort();
    } catch (error) {
      if (!isFsError(error, "NotFound")) throw error;
    }
    for (const name of names) {
      const [, section, version] = /^(.*)-v(\d+)\.jsonl$/.exec(name)!;
      const key = { name: section, version: Number(version) };
      bytes += (await this.#fs.stat(joinPath(this.location, name)))?.size ?? 0;
      let records = 0;
      await this.#scan(key, () => void records++).catch(() => {});
      sections.push({ ...key, records });
    }
    return { kind: this.kind, location: this.location, bytes, sections };
  }

  close(): void {}
}
