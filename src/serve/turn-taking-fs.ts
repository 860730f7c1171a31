/**
 * The file system with reads that give way: the adapters read with blocking calls, so a long
 * read (a 90 MB session's tree) would otherwise hold the server's one thread until it ends, and
 * every other request (a page, the next entries, an event) would wait behind it. Here a read
 * lets the event loop run once per few megabytes handed out.
 * @module
 */
import type { FileSystem } from "../io/file-system.ts";

/** Bytes read between two turns given to the event loop. */
const TURN_BYTES = 4 * 1024 * 1024;

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `fs` whose reads let other work run every `every` bytes; `onTurn` runs at each turn (the
 * server collects garbage then, so a long read's leftovers do not pile up until it ends).
 */
export function turnTakingFileSystem(fs: FileSystem, every = TURN_BYTES, onTurn: () => void = () => {}): FileSystem {
  return {
    ...fs,
    async *read(path, range) {
      let since = 0;
      for await (const chunk of fs.read(path, range)) {
        yield chunk;
        since += chunk.length;
        if (since >= every) {
          since = 0;
          await turn();
          onTurn();
        }
      }
    },
  };
}
