/**
 * The header of a session file, read with the bounded header scan.
 * @module
 */
import type { SessionHeader } from "../core/format/types.ts";
import { HEADER_SCAN_LIMIT, HeaderScan } from "../core/read/header-scan.ts";
import type { FileSystem } from "../io/file-system.ts";

/** The header, or null when the file is not a session or cannot be read. */
export async function readHeader(fs: FileSystem, path: string): Promise<SessionHeader | null> {
  const scan = new HeaderScan();
  try {
    for await (const chunk of fs.read(path, { end: HEADER_SCAN_LIMIT + 1, reuseBuffer: true })) {
      scan.push(chunk);
      if (scan.done) break;
    }
  } catch {
    return null;
  }
  return scan.end();
}
