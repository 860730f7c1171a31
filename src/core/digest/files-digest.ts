/**
 * The catalog section behind `files`: the file references of every entry, as written (they
 * are resolved against the session's cwd when asked). Only lines that can hold references
 * are parsed: assistant tool calls, bash runs, nested calls and summaries with details.
 * @module
 */
import { entryFileRefs, type FileOp } from "../files/file-refs.ts";
import type { RawLine } from "../read/line-splitter.ts";
import { keyIs, stringValue, valueEnd } from "../read/scan-keys.ts";
import type { DigestKind } from "./digester.ts";
import { lineEntry } from "./line-entry.ts";
import { scanMembers, STOP } from "./scan-members.ts";

/** One reference: entry id, entry timestamp, op, tool, paths as written, and the bash command line. */
export type FileRefRow = [string | null, string | null, FileOp, string, string[], string?];

/** The references of one file, in file order. */
export interface FilesState {
  refs: FileRefRow[];
}

/** True when the line may hold file references and is worth a full parse. */
function worthParsing(b: Uint8Array): boolean {
  let type: string | undefined;
  let wanted = false;
  const end = scanMembers(b, 0, (ks, ke, vs) => {
    if (keyIs(b, ks, ke, "type")) {
      const ve = valueEnd(b, vs);
      type = stringValue(b, vs, ve);
      if (type === "compaction" || type === "branch_summary") {
        wanted = true;
        return STOP;
      }
      return type === "message" ? ve : STOP;
    }
    if (!keyIs(b, ks, ke, "message") || b[vs] !== 0x7b) return valueEnd(b, vs);
    let role: string | undefined;
    return scanMembers(b, vs, (mks, mke, mvs) => {
      if (keyIs(b, mks, mke, "role")) {
        const ve = valueEnd(b, mvs);
        role = stringValue(b, mvs, ve);
        if (role === "assistant" || role === "bashExecution") {
          wanted = true;
          return STOP;
        }
        return role === "toolResult" ? ve : STOP;
      }
      if (keyIs(b, mks, mke, "nestedCalls") && role === "toolResult") {
        wanted = true;
        return STOP;
      }
      return valueEnd(b, mvs);
    });
  });
  return wanted || end === -1;
}

/** The reference rows of one entry line. */
export function fileRefRowsOfLine(line: RawLine): FileRefRow[] {
  if (!worthParsing(line.bytes)) return [];
  const entry = lineEntry(line);
  if (!entry) return [];
  const id = typeof entry.id === "string" ? entry.id : null;
  const timestamp = typeof entry.timestamp === "string" ? entry.timestamp : null;
  return entryFileRefs(entry).map((ref): FileRefRow =>
    ref.command === undefined ? [id, timestamp, ref.op, ref.tool, ref.paths] : [id, timestamp, ref.op, ref.tool, ref.paths, ref.command]
  );
}

/** File references per session file. */
export const filesDigest: DigestKind<FilesState> = {
  name: "files",
  version: 2,
  initial: () => ({ refs: [] }),
  entry(data, line) {
    for (const row of fileRefRowsOfLine(line)) data.refs.push(row);
  },
};
