/**
 * Small byte-range reads (the catalog's checks of a file's first bytes, a rewrite's look at what was
 * appended), concatenated into one array.
 * @module
 */
import type { FileSystem } from "../io/file-system.ts";

/** Bytes `[start, end)` of `path` (fewer if the file is shorter; all of it by default). */
export async function readBytes(fs: FileSystem, path: string, start = 0, end?: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of fs.read(path, { start, end })) {
    parts.push(chunk);
    length += chunk.length;
  }
  if (parts.length === 1) return parts[0];
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
