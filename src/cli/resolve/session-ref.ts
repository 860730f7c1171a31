/**
 * Turns a session reference into a file: a path, a full id, a unique id prefix (this
 * directory's sessions first, then every project), or `@` for the most recent session here.
 * Unlike pi, an ambiguous prefix is an error that lists the candidates.
 * @module
 */
import type { SessionHeader } from "../../core/format/types.ts";
import { baseName, resolvePath } from "../../core/storage/paths.ts";
import { allSessionFiles, mapConcurrent, sessionFilesIn } from "../../session/list-sessions.ts";
import { readHeader } from "../../session/read-header.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";

/** True when a reference is meant as a path rather than an id. */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

interface Candidate {
  path: string;
  header: SessionHeader;
  mtimeMs: number;
}

async function candidates(ctx: CliContext, files: string[], cwdFilter?: string): Promise<Candidate[]> {
  const found = await mapConcurrent(files, 32, async (path) => {
    const header = await readHeader(ctx.fs, path);
    if (!header) return null;
    if (cwdFilter !== undefined && (typeof header.cwd !== "string" || resolvePath(ctx.cwd, header.cwd) !== cwdFilter)) return null;
    const stat = await ctx.fs.stat(path);
    return { path, header, mtimeMs: stat?.mtimeMs ?? 0 };
  });
  return found.filter((c): c is Candidate => c !== null);
}

/** Sessions of the current directory (the per-cwd folder, or a custom dir filtered by cwd). */
export async function localCandidates(ctx: CliContext): Promise<Candidate[]> {
  const choice = await ctx.sessionDir();
  return candidates(ctx, await sessionFilesIn(ctx.fs, choice.dir), choice.custom ? ctx.cwd : undefined);
}

/** Sessions of every project (or of the flat custom session dir). */
export async function globalCandidates(ctx: CliContext): Promise<Candidate[]> {
  const choice = await ctx.sessionDir();
  const files = choice.custom ? await sessionFilesIn(ctx.fs, choice.dir) : await allSessionFiles(ctx.fs, ctx.agentDir);
  return candidates(ctx, files);
}

/** The most recently written session of the current directory (pi -c), or undefined. */
export async function mostRecentLocal(ctx: CliContext): Promise<string | undefined> {
  const local = await localCandidates(ctx);
  // Whole milliseconds: runtimes differ in sub-millisecond precision, and ties must break
  // the same way everywhere (by name, newest first, as file names start with the time).
  local.sort((a, b) => Math.floor(b.mtimeMs) - Math.floor(a.mtimeMs) || (a.path < b.path ? 1 : -1));
  return local[0]?.path;
}

function pick(ref: string, list: Candidate[]): Candidate | undefined {
  const exact = list.filter((c) => c.header.id === ref);
  if (exact.length >= 1) return exact.sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  const prefixed = list.filter((c) => c.header.id.startsWith(ref));
  if (prefixed.length > 1) {
    const shown = prefixed.slice(0, 10).map((c) => `  ${c.header.id}  ${c.path}`);
    throw new CliError(
      "ambiguous-session",
      `Session reference "${ref}" matches ${prefixed.length} sessions:\n${shown.join("\n")}${prefixed.length > 10 ? "\n  …" : ""}`,
      "Type more characters of the id, or pass the file path",
    );
  }
  return prefixed[0];
}

/**
 * The absolute path a session reference names.
 *
 * @example
 * ```ts
 * // await resolveSessionRef(ctx, "@");        // most recent session here
 * // await resolveSessionRef(ctx, "01a2b3");   // unique id prefix
 * ```
 */
export async function resolveSessionRef(ctx: CliContext, ref: string): Promise<string> {
  if (ref === "") throw new CliError("bad-reference", "Empty session reference", "Pass a path, a session id or prefix, or @");
  if (ref === "@") {
    const recent = await mostRecentLocal(ctx);
    if (!recent) {
      throw new CliError("no-session", `No session found for ${ctx.cwd}`, "Use --all with `pi-session list` to see other projects, or pass --cwd");
    }
    return recent;
  }
  if (looksLikePath(ref)) {
    const path = resolvePath(ctx.deps.storage.processCwd, ref);
    const stat = await ctx.fs.stat(path);
    if (!stat) throw new CliError("not-found", `Cannot read ${path}: no such file`, "Check the path; `pi-session list --all` shows known sessions", 3);
    if (stat.isDirectory) throw new CliError("is-directory", `${path} is a directory, not a session file`, "Pass a .jsonl session file", 3);
    // A pipe (`<(…)`, /dev/stdin) gives its bytes once, and commands read a file more than once.
    if (!stat.isFile) {
      throw new CliError("not-a-file", `${path} is a pipe or a device, not a session file`, "Save the session to a file first (`… > session.jsonl`) and pass that file", 3);
    }
    return path;
  }
  const found = pick(ref, await localCandidates(ctx)) ?? pick(ref, await globalCandidates(ctx));
  if (!found) {
    throw new CliError("no-session", `No session found matching "${ref}"`, "Run `pi-session list --all` to see session ids");
  }
  return found.path;
}

/** Short display name of a session file for messages. */
export function shortName(path: string): string {
  return baseName(path);
}
