/**
 * The header of a session file, read with the bounded header scan.
 * @module
 */
import type { SessionHeader } from "../core/format/types.ts";
import { HEADER_SCAN_LIMIT, HeaderScan } from "../core/read/header-scan.ts";
import type { FileSystem } from "../io/file-system.ts";
import { read, runSteps, type Steps } from "../io/io-steps.ts";

const CHUNK = 64 * 1024;

/** The header, or null when the file is not a session or cannot be read. */
export function readHeader(fs: FileSystem, path: string): Promise<SessionHeader | null> {
  return runSteps(fs, readHeaderSteps(path));
}

/** `readHeader` as a step function. */
export function* readHeaderSteps(path: string): Steps<SessionHeader | null> {
  const scan = new HeaderScan();
  try {
    for (let at = 0; at <= HEADER_SCAN_LIMIT && !scan.done; at += CHUNK) {
      const chunk = yield* read(path, at, Math.min(at + CHUNK, HEADER_SCAN_LIMIT + 1));
      if (chunk.length > 0) scan.push(chunk);
      if (chunk.length < CHUNK) break;
    }
  } catch {
    return null;
  }
  return scan.end();
}
