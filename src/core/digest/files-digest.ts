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

/**
 * One instance of each tool name and of each list of paths a state's rows hold (the rows only
 * read them): a long session names the same few files thousands of times, and each row kept its
 * own copies. The 1.2 GB bench session's 45,000 rows name 7 distinct paths; they held 10.1 MiB of
 * heap at the end of its read, 7.2 with the copies shared, and a cold \`index\` of it alone peaked
 * at 156 MB, 144 with them shared (two runs each).
 */
const sharedOf = new WeakMap<FilesState, Map<string, string | string[]>>();

function shared<T extends string | string[]>(data: FilesState, key: string, value: T): T {
  let known = sharedOf.get(data);
  if (!known) sharedOf.set(data, known = new Map());
  const found = known.get(key);
  if (found !== undefined) return found as T;
  known.set(key, value);
  return value;
}

/** File references per session file. */
export const filesDigest: DigestKind<FilesState> = {
  name: "files",
  version: 2,
  initial: () => ({ refs: [] }),
  entry(data, line) {
    for (const row of fileRefRowsOfLine(line)) {
      // Keys apart by their first character: a tool name, or the paths (NUL never in either).
      row[3] = shared(data, `t${row[3]}`, row[3]);
      row[4] = shared(data, `p${row[4].join("\0")}`, row[4]);
      data.refs.push(row);
    }
  },
};
