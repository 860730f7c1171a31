/**
 * Writing a big new file past the page cache (Linux `O_DIRECT`): the first megabytes go through
 * the cache as usual (a small file never leaves it), the rest in aligned pieces that the disk
 * takes straight from our buffer. Copying a gigabyte into fresh cache pages was most of what a
 * 1.2 GB session's HTML export cost the kernel (measured by hand with `dd` on the same bytes:
 * 3.8–4.2 s of system time through the cache and fsync, 0.45 s direct). Direct I/O asks the
 * buffer's address, the file offset and the length to be multiples of the block size: the caller
 * gives aligned buffers, the unaligned head and tail go through the cache, and where the file
 * system refuses (no `O_DIRECT`, or a write it does not take) everything goes through the cache.
 * Two buffers take turns, so one is filled while the other is written.
 * @module
 */
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { chunksOf, type WriteData } from "./_write-data.ts";

/** What direct I/O asks addresses, offsets and lengths to be multiples of (covers 512-byte disks too). */
export const ALIGN = 4096;

/** Gives a buffer of `size` bytes whose address is a multiple of `ALIGN`, or null. */
export type AlignedBuffer = (size: number) => Uint8Array | null;

export interface DirectSizes {
  /** Bytes written through the cache before the rest goes past it. */
  from: number;
  /** Bytes per direct write (a multiple of `ALIGN`). */
  piece: number;
}

// 2 MB pieces: a 1.2 GB JSONL export peaked 11 MB higher with 4 MB ones (over its 300 MB), and
// the HTML export, which gains most from writing past the cache, took about as long (by hand).
const SIZES: DirectSizes = { from: 8 * 1024 * 1024, piece: 2 * 1024 * 1024 };

/** Writes `data[from, to)` at file offset `position`; loops only if the kernel writes short. */
async function writeAt(handle: FileHandle, data: Uint8Array, from: number, to: number, position: number): Promise<void> {
  while (from < to) {
    const { bytesWritten } = await handle.write(data, from, to - from, position);
    from += bytesWritten;
    position += bytesWritten;
  }
}

/** The aligned part of the file, from an aligned offset on, through two aligned buffers. */
class DirectPart {
  readonly #direct: FileHandle;
  readonly #cached: FileHandle;
  readonly #buffers: Uint8Array[];
  readonly #pending: (Promise<void> | null)[] = [null, null];
  readonly #piece: number;
  #current = 0;
  /** File offset of the current buffer's first byte (a multiple of `ALIGN`). */
  #start: number;
  /** The current buffer's bytes not written yet: [#from, #fill). */
  #from: number;
  #fill: number;
  /** Set once a direct write is refused: the rest goes through the cache. */
  #refused = false;

  constructor(direct: FileHandle, cached: FileHandle, buffers: Uint8Array[], position: number, piece: number) {
    this.#direct = direct;
    this.#cached = cached;
    this.#buffers = buffers;
    this.#piece = piece;
    this.#start = position - (position % ALIGN);
    this.#from = this.#fill = position % ALIGN;
  }

  async add(chunk: Uint8Array): Promise<void> {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(this.#piece - this.#fill, chunk.length - at);
      this.#buffers[this.#current].set(chunk.subarray(at, at + take), this.#fill);
      this.#fill += take;
      at += take;
      if (this.#fill === this.#piece) await this.#next();
    }
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    const buffer = this.#buffers[this.#current];
    const end = this.#fill - (this.#fill % ALIGN);
    if (end > this.#from) await this.#write(buffer, this.#from, end);
    this.#from = Math.max(this.#from, end);
    await writeAt(this.#cached, buffer, this.#from, this.#fill, this.#start + this.#from);
    await Promise.all(this.#pending);
  }

  /** The current buffer is full: its write starts, and the other buffer is taken once written. */
  async #next(): Promise<void> {
    const promise = this.#write(this.#buffers[this.#current], this.#from, this.#piece);
    // Awaited before the buffer is used again; until then a failure must not count as unhandled.
    promise.catch(() => {});
    this.#pending[this.#current] = promise;
    this.#current ^= 1;
    this.#start += this.#piece;
    this.#from = this.#fill = 0;
    await this.#pending[this.#current];
    this.#pending[this.#current] = null;
  }

  /** Writes `buffer[from, to)` (the buffer at `#start` now): an unaligned head through the cache, the rest direct. */
  async #write(buffer: Uint8Array, from: number, to: number): Promise<void> {
    const start = this.#start;
    const aligned = Math.min(to, from + ((ALIGN - (from % ALIGN)) % ALIGN));
    if (aligned > from) await writeAt(this.#cached, buffer, from, aligned, start + from);
    if (to <= aligned) return;
    const position = start + aligned;
    if (!this.#refused) {
      try {
        await writeAt(this.#direct, buffer, aligned, to, position);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "EINVAL") throw error;
        this.#refused = true;
      }
    }
    await writeAt(this.#cached, buffer, aligned, to, position);
  }
}

/**
 * Writes `data` into the new file `temp` (created with `mode`, failing if it exists) and makes it
 * durable: past `sizes.from` bytes in direct pieces where `aligned` gives buffers and the file
 * system takes `O_DIRECT`, else all through the cache.
 */
export async function writeTempDirect(temp: string, data: WriteData, mode: number, aligned: AlignedBuffer, sizes: DirectSizes = SIZES): Promise<void> {
  const cached = await open(temp, "wx", mode);
  let direct: FileHandle | null = null;
  let part: DirectPart | null = null;
  let tried = false;
  let position = 0;
  try {
    for await (const chunk of chunksOf(data)) {
      if (part === null && !tried && position + chunk.length >= sizes.from) {
        tried = true;
        const buffers = [aligned(sizes.piece), aligned(sizes.piece)];
        if (constants.O_DIRECT && buffers[0] && buffers[1]) {
          direct = await open(temp, constants.O_WRONLY | constants.O_DIRECT).catch(() => null);
          if (direct) part = new DirectPart(direct, cached, buffers as Uint8Array[], position, sizes.piece);
        }
      }
      if (part) await part.add(chunk);
      else await writeAt(cached, chunk, 0, chunk.length, position);
      position += chunk.length;
    }
    await part?.finish();
    await cached.sync();
  } finally {
    await direct?.close().catch(() => {});
    await cached.close();
  }
}
