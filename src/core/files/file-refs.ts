/**
 * Which files an entry touched, as written in the session: tool calls of read, edit, write,
 * ls, grep and find, bash commands (the agent's and the user's `!`), calls nested in a tool
 * result, and the `readFiles` / `modifiedFiles` that compactions and branch summaries record.
 * @module
 */
import { isObject } from "../read/decode-line.ts";
import { expandHome, resolvePath } from "../storage/paths.ts";
import { commandPaths } from "./shell-words.ts";

/** What was done to a path. `modified` comes from a summary's `modifiedFiles`. */
export type FileOp = "read" | "edit" | "write" | "list" | "search" | "bash" | "modified";

/** One use of paths by an entry: the tool (or entry type) and the paths as written. */
export interface FileRef {
  op: FileOp;
  tool: string;
  paths: string[];
  /** The command line, for bash. */
  command?: string;
}

const TOOL_OPS: Record<string, FileOp> = { read: "read", edit: "edit", write: "write", ls: "list", grep: "search", find: "search" };
const COMMAND_LIMIT = 300;

/** The paths a tool call names (pi's tools, plus `file_path` as other agents spell it). */
export function toolCallRefs(name: unknown, args: unknown): FileRef[] {
  if (typeof name !== "string" || !isObject(args)) return [];
  if (name === "bash" && typeof args.command === "string") return commandRefs("bash", args.command);
  const op = TOOL_OPS[name];
  if (!op) return [];
  const path = typeof args.path === "string" ? args.path : typeof args.file_path === "string" ? args.file_path : undefined;
  // ls, grep and find default to the current directory.
  if (path === undefined || path === "") return op === "list" || op === "search" ? [{ op, tool: name, paths: ["."] }] : [];
  return [{ op, tool: name, paths: [path] }];
}

function commandRefs(tool: string, command: string): FileRef[] {
  const paths = commandPaths(command);
  return paths.length ? [{ op: "bash", tool, paths, command: command.slice(0, COMMAND_LIMIT) }] : [];
}

function summaryRefs(tool: string, details: unknown): FileRef[] {
  if (!isObject(details)) return [];
  const refs: FileRef[] = [];
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((p): p is string => typeof p === "string" && p !== "") : []);
  const read = list(details.readFiles);
  const modified = list(details.modifiedFiles);
  if (read.length) refs.push({ op: "read", tool, paths: read });
  if (modified.length) refs.push({ op: "modified", tool, paths: modified });
  return refs;
}

/**
 * The file references of one parsed entry.
 *
 * @example
 * ```ts
 * entryFileRefs({ type: "message", message: { role: "assistant", content: [
 *   { type: "toolCall", id: "c", name: "read", arguments: { path: "src/a.ts" } }] } });
 * // [{ op: "read", tool: "read", paths: ["src/a.ts"] }]
 * ```
 */
export function entryFileRefs(entry: Record<string, unknown>): FileRef[] {
  if (entry.type === "compaction" || entry.type === "branch_summary") return summaryRefs(entry.type, entry.details);
  if (entry.type !== "message" || !isObject(entry.message)) return [];
  const message = entry.message;
  if (message.role === "assistant" && Array.isArray(message.content)) {
    return message.content.flatMap((block) => (isObject(block) && block.type === "toolCall" ? toolCallRefs(block.name, block.arguments) : []));
  }
  if (message.role === "toolResult" && isObject(message.nestedCalls) && Array.isArray(message.nestedCalls.calls)) {
    return message.nestedCalls.calls.flatMap((call) => (isObject(call) ? toolCallRefs(call.name, call.arguments) : []));
  }
  if (message.role === "bashExecution" && typeof message.command === "string") return commandRefs("!bash", message.command);
  return [];
}

/**
 * A path as a tool saw it, made absolute the way pi's tools resolve it: a leading `@` dropped,
 * `~` and `file://` expanded, relative paths against the session's cwd.
 */
export function resolveToolPath(path: string, cwd: string, home: string): string {
  const bare = path.startsWith("@") ? path.slice(1) : path;
  return resolvePath(cwd || "/", expandHome(bare, home));
}

/** True when `path` is `target` or lies under the directory `target`. */
export function pathWithin(path: string, target: string): boolean {
  return path === target || path.startsWith(target.endsWith("/") ? target : target + "/");
}
