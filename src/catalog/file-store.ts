/**
 * The catalog in plain files where there is no SQLite (Node 20): `<dir>/<section>-v<n>.jsonl`,
 * a format line, then one record per line. Saves take a lock, merge with what another process
 * saved meanwhile and replace the file atomically, so readers always see a complete file.
 * @module
 */
import { type FileStat, type FileSystem, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { joinPath } from "../core/storage/paths.ts";
import { readBytes } from "./read-bytes.ts";
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

/**
 * The file's bytes: one line per string. Encoded straight into one array, without joining the
 * lines into one more string first (the catalog's largest allocation when every record changed).
 * Record lines are ASCII, one byte per character; a line that is not falls back to a plain join.
 */
function encodeLines(lines: string[]): Uint8Array {
  let size = 0;
  for (const line of lines) size += line.length + 1;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const line of lines) {
    const { read, written } = encoder.encodeInto(line, bytes.subarray(at));
    at += written;
    if (read !== line.length || at >= size) return encoder.encode(lines.join("\n") + "\n");
    bytes[at++] = 0x0a;
  }
  return bytes;
}

function formatLine(section: SectionKey): string {
  return JSON.stringify({ catalog: "pi-session", format: FORMAT, section: section.name, version: section.version });
}

interface Loaded {
  stat: FileStat | null;
  /** Record lines by path, kept as text so unchanged records are written back as they were. */
  lines: Map<string, string>;
  records: Map<string, CatalogRecord>;
}

/**
 * A `CatalogStore` over any `FileSystem` (memory included).
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
  #loaded = new Map<string, Loaded>();

  /** `lockTimeoutMs`: how long a save waits for another process's save (default 3 s). */
  constructor(fs: FileSystem, dir: string, options: { lockTimeoutMs?: number } = {}) {
    this.#fs = fs;
    this.location = dir;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 3000;
  }

  #file(section: SectionKey): string {
    return joinPath(this.location, `${section.name}-v${section.version}.jsonl`);
  }

  async #read(section: SectionKey): Promise<Loaded> {
    const path = this.#file(section);
    const stat = await this.#fs.stat(path);
    if (stat === null) return { stat, lines: new Map(), records: new Map() };
    const text = decoder.decode(await readBytes(this.#fs, path, 0, stat.size));
    const rows = text.split("\n");
    if (rows[rows.length - 1] === "") rows.pop();
    if (rows.length === 0) throw new CatalogCorruptError(path, "the file is empty");
    let format: Record<string, unknown>;
    try {
      format = JSON.parse(rows[0]);
    } catch {
      throw new CatalogCorruptError(path, "the first line is not the catalog's format line");
    }
    // Another format or version of this section: not an error, it is simply rebuilt.
    if (formatLine(section) !== JSON.stringify(format)) return { stat, lines: new Map(), records: new Map() };
    const lines = new Map<string, string>();
    const records = new Map<string, CatalogRecord>();
    for (let i = 1; i < rows.length; i++) {
      let record: CatalogRecord;
      try {
        record = fromLine(rows[i]);
      } catch (error) {
        throw new CatalogCorruptError(path, `line ${i + 1}: ${(error as Error).message}`);
      }
      lines.set(record.path, rows[i]);
      records.set(record.path, record);
    }
    return { stat, lines, records };
  }

  async load(section: SectionKey): Promise<Map<string, CatalogRecord>> {
    const { stat, lines, records } = await this.#read(section);
    this.#loaded.set(section.name, { stat, lines, records: new Map() });
    return records;
  }

  async save(section: SectionKey, changes: SectionChanges): Promise<void> {
    if (changes.put.length === 0 && changes.remove.length === 0) return;
    const path = this.#file(section);
    await this.#fs.mkdir(this.location, { recursive: true });
    await withFileLock(this.#fs, path, async () => {
      // Merge with what another process may have written since we loaded; a corrupt file is replaced.
      const stat = await this.#fs.stat(path);
      let base = this.#loaded.get(section.name);
      if (!base || !sameFile(base.stat, stat)) base = await this.#read(section).catch(() => ({ stat, lines: new Map<string, string>(), records: new Map() }));
      const lines = new Map(base.lines);
      for (const gone of changes.remove) lines.delete(gone);
      for (const record of changes.put) lines.set(record.path, toLine(record));
      await this.#fs.writeAtomic(path, encodeLines([formatLine(section), ...lines.values()]));
      this.#loaded.set(section.name, { stat: await this.#fs.stat(path), lines, records: new Map() });
    }, { timeoutMs: this.#lockTimeoutMs });
  }

  async clear(): Promise<void> {
    let names: string[] = [];
    try {
      names = (await this.#fs.list(this.location)).filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => e.name);
    } catch (error) {
      if (!isFsError(error, "NotFound")) throw error;
    }
    for (const name of names) await this.#fs.remove(joinPath(this.location, name));
    this.#loaded.clear();
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
      sections.push({ ...key, records: (await this.#read(key).catch(() => ({ lines: new Map() }))).lines.size });
    }
    return { kind: this.kind, location: this.location, bytes, sections };
  }

  close(): void {}
}

function sameFile(a: FileStat | null, b: FileStat | null): boolean {
  return a === null ? b === null : b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
