/**
 * The header of a session file, read with the bounded header scan.
 * @module
 */
import type { SessionHeader } from "../core/format/types.ts";
import { HEADER_SCAN_LIMIT, HeaderScan } from "../core/read/header-scan.ts";
import type { FileSystem } from "../io/file-system.ts";
import { read, runSteps, type Steps } from "../io/io-steps.ts";

const CHUNK = 64 * 1024;
/** The first read: a whole header line, most of the time. */
const FIRST_CHUNK = 4 * 1024;

/** The header, or null when the file is not a session or cannot be read. */
export function readHeader(fs: FileSystem, path: string): Promise<SessionHeader | null> {
  return runSteps(fs, readHeaderSteps(path));
}

/** `readHeader` as a step function. */
export function* readHeaderSteps(path: string): Steps<SessionHeader | null> {
  const scan = new HeaderScan();
  try {
    // A header line is a few hundred bytes: a first read of 64 KB per file, for the 25,000
    // headers a server reads at its start, made 1.6 GB of buffers for the collector.
    for (let at = 0, size = FIRST_CHUNK; at <= HEADER_SCAN_LIMIT && !scan.done; at += size, size = CHUNK) {
      const end = Math.min(at + size, HEADER_SCAN_LIMIT + 1);
      const chunk = yield* read(path, at, end);
      if (chunk.length > 0) scan.push(chunk);
      if (chunk.length < end - at) break;
    }
  } catch {
    return null;
  }
  return scan.end();
}
