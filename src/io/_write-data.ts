/**
 * What `writeAtomic` takes: the bytes, or chunks of them made while the file is written (a
 * catalog rewrite streams its records instead of holding the whole file). Shared by the adapters.
 * @module
 */

/**
 * The new content of a file: all of it, or its chunks in order. A writer is done with a chunk
 * before it asks for the next one, so a producer may fill the same buffer again.
 */
export type WriteData = Uint8Array | AsyncIterable<Uint8Array>;

/** An error the data's producer threw: an adapter passes it on as it is, not as an `FsError`. */
export class SourceFailure {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/** The chunks of `data`; a failure to produce one comes out as a `SourceFailure`. */
export async function* chunksOf(data: WriteData): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    yield data;
    return;
  }
  const chunks = data[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw new SourceFailure(error);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Also when the writer stops early (a failed write): the producer closes what it holds.
    await chunks.return?.();
  }
}
