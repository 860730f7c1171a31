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
import { joinPath } from "../core/storage/paths.ts";
import type { CatalogRecord, CatalogStore, SectionChanges, SectionKey, StoreDescription } from "./store.ts";

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

/** One record as a line of JSON, non-ASCII escaped: ASCII decodes several times faster (Node 20). */
function toLine(r: CatalogRecord): string {
  const row: Row = [r.path, r.size, r.mtimeMs, r.end, r.lines, r.headHash, r.tailHash, r.headerId, r.state];
  if (r.final) row.push(r.final);
  return JSON.stringify(row).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function fromLine(line: string): CatalogRecord {
  const row = JSON.parse(line) as Row;
  if (!Array.isArray(row) || typeof row[0] !== "string" || typeof row[3] !== "number" || typeof row[8] !== "object") {
    throw new SyntaxError("a record has the wrong shape");
  }
  const [path, size, mtimeMs, end, lines, headHash, tailHash, headerId, state, final] = row;
  const record = { path, size, mtimeMs, end, lines, headHash, tailHash, headerId, state } as CatalogRecord;
  if (final) record.final = final as CatalogRecord["final"];
  return record;
}

/** The file's bytes: each line, then a newline. */
function joinLines(lines: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const line of lines) size += line.length + 1;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const line of lines) {
    bytes.set(line, at);
    at += line.length;
    bytes[at++] = 0x0a;
  }
  return bytes;
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
   * call only). A missing file, or one of another format or version (it is
   * simply rebuilt), has no records.
   */
  async #scan(section: SectionKey, onRecord: (bytes: Uint8Array) => void): Promise<void> {
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
    }
    splitter.end();
    if (format === "unread") throw new CatalogCorruptError(path, "the file is empty");
  }

  async load(section: SectionKey): Promise<Map<string, CatalogRecord>> {
    const records = new Map<string, CatalogRecord>();
    await this.#scan(section, (bytes) => {
      const record = fromLine(decoder.decode(bytes));
      records.set(record.path, record);
    });
    return records;
  }

  async save(section: SectionKey, changes: SectionChanges): Promise<void> {
    if (changes.put.length === 0 && changes.remove.length === 0) return;
    const path = this.#file(section);
    await this.#fs.mkdir(this.location, { recursive: true });
    await withFileLock(this.#fs, path, async () => {
      // Merge with the file as it is now (another process may have saved since we loaded):
      // unchanged records are written back byte for byte. A corrupt file is replaced.
      const lines = new Map<string, Uint8Array>();
      await this.#scan(section, (bytes) => void lines.set(pathOfLine(bytes), bytes.slice())).catch(() => lines.clear());
      for (const gone of changes.remove) lines.delete(gone);
      for (const record of changes.put) lines.set(record.path, encoder.encode(toLine(record)));
      await this.#fs.writeAtomic(path, joinLines([encoder.encode(formatLine(section)), ...lines.values()]));
    }, { timeoutMs: this.#lockTimeoutMs });
  }

  async clear(): Promise<void> {
    let names: string[] = [];
    try {
      names = (await this.#fs.list(this.location)).filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name);
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
