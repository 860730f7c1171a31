/**
 * What `otel` has delivered, per receiver and session file: the file's size and time when it
 * was read, how many of its entries were acknowledged and the last one's id. Kept next to the
 * catalog (`otel-sent-v1.json` in its folder, private like it); a lost or damaged store only
 * means sessions are sent again, with the same ids.
 * @module
 */
import { joinPath } from "../core/storage/paths.ts";
import { readBytes } from "../io/read-bytes.ts";
import { makePrivateDir, PRIVATE_FILE_MODE } from "../catalog/private-files.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";

/** One session file as acknowledged by one receiver. */
export interface SentRecord {
  /** File size and modification time when read: unchanged means nothing new. */
  size: number;
  mtimeMs: number;
  /** Entries acknowledged (the first `entries` complete entries of the file). */
  entries: number;
  /** Id of the last acknowledged entry, to notice a file rewritten meanwhile. */
  lastId: string | null;
}

interface StoreFile {
  version: 1;
  /** Receiver (traces URL) -> session path -> record. */
  receivers: Record<string, Record<string, SentRecord>>;
}

export const SENT_STORE_NAME = "otel-sent-v1.json";

/** The store's records of one receiver, loaded once and saved when a run ends. */
export class SentStore {
  readonly #fs: FileSystem;
  readonly #path: string;
  readonly #file: StoreFile;
  readonly #records: Record<string, SentRecord>;
  #changed = false;

  private constructor(fs: FileSystem, path: string, file: StoreFile, receiver: string) {
    this.#fs = fs;
    this.#path = path;
    this.#file = file;
    this.#records = file.receivers[receiver] ??= {};
  }

  /** The store in `cacheDir`, for `receiver`; empty when missing or unreadable as JSON. */
  static async open(fs: FileSystem, cacheDir: string, receiver: string): Promise<SentStore> {
    const path = joinPath(cacheDir, SENT_STORE_NAME);
    let file: StoreFile = { version: 1, receivers: {} };
    try {
      const parsed = JSON.parse(new TextDecoder().decode(await readBytes(fs, path)));
      if (parsed?.version === 1 && parsed.receivers && typeof parsed.receivers === "object") file = parsed;
    } catch (error) {
      // Missing, or not JSON (a torn write from a killed run): start afresh.
      if (isFsError(error) && !isFsError(error, "NotFound")) throw error;
    }
    return new SentStore(fs, path, file, receiver);
  }

  get(path: string): SentRecord | undefined {
    const record = this.#records[path];
    return record && typeof record.entries === "number" ? record : undefined;
  }

  set(path: string, record: SentRecord): void {
    this.#records[path] = record;
    this.#changed = true;
  }

  /** Writes the store back if anything changed. */
  async save(): Promise<void> {
    if (!this.#changed) return;
    const dir = this.#path.slice(0, this.#path.length - SENT_STORE_NAME.length - 1);
    await makePrivateDir(this.#fs, dir);
    await this.#fs.writeAtomic(this.#path, new TextEncoder().encode(JSON.stringify(this.#file)), { mode: PRIVATE_FILE_MODE });
    this.#changed = false;
  }
}
