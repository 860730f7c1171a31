/**
 * The files `check` and `repair` go through: files named (or found by reference) and the
 * `.jsonl` files of directories, directly in them and one folder down, in path order. A
 * directory's folders are listed one at a time as the walk reaches them, so a sessions
 * directory of any size is walked without a list of all its paths in memory.
 * @module
 */
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import { sessionFilesIn } from "../session/list-sessions.ts";
import type { CliContext } from "./context.ts";
import { describeError } from "./errors.ts";
import { looksLikePath, resolveSessionRef } from "../query/resolve/session-ref.ts";

export interface Target {
  path: string;
  /** Named on the command line (not found in a directory): not being a session is fatal. */
  named: boolean;
  /** A pipe, socket or device: never read (a FIFO may never end), reported as unreadable. */
  notAFile?: boolean;
}

/**
 * A directory named on the command line: its `.jsonl` file names and its folder names with a
 * `/` after them, sorted. Sorting these sorts its paths: every path of folder `F` starts with
 * `F/`, and no other name has a `/` in it.
 */
interface Directory {
  dir: string;
  names: string[];
}

/** The sorted names of `dir` (see `Directory`), and whether any `.jsonl` file is in it or one folder down. */
async function namesOf(ctx: CliContext, dir: string): Promise<{ names: string[]; empty: boolean }> {
  const names: string[] = [];
  let empty = true;
  for (const entry of await ctx.fs.list(dir)) {
    if (entry.isFile && entry.name.endsWith(".jsonl")) {
      names.push(entry.name);
      empty = false;
    } else if (entry.isDirectory) names.push(entry.name + "/");
  }
  names.sort();
  // Folders listed only until one has a session (a sessions directory: the first one).
  for (let i = 0; empty && i < names.length; i++) {
    if (names[i].endsWith("/")) empty = (await sessionFilesIn(ctx.fs, joinPath(dir, names[i].slice(0, -1)))).length === 0;
  }
  return { names, empty };
}

/** The files of `directory`, in path order, each folder listed when reached. */
async function* filesOf(ctx: CliContext, { dir, names }: Directory): AsyncGenerator<string> {
  for (const name of names) {
    if (!name.endsWith("/")) yield joinPath(dir, name);
    else yield* (await sessionFilesIn(ctx.fs, joinPath(dir, name.slice(0, -1)))).sort();
  }
}

/**
 * Turns the arguments into files; an unresolvable reference is reported and sets the exit code
 * (2), an empty directory is noted, both before any file is handed out. A file named twice (or
 * also found in a named directory) comes once.
 */
export async function collectTargets(ctx: CliContext, inputs: string[]): Promise<{ targets: AsyncIterable<Target>; failed: number }> {
  const found: (Target | Directory)[] = [];
  let failed = 0;
  for (const input of inputs) {
    const asPath = resolvePath(ctx.deps.storage.processCwd, input);
    // A path that cannot even be stat'ed (a link loop) is still checked, and reported as unreadable.
    const stat = input === "" ? null : await ctx.fs.stat(asPath).catch(() => null);
    if (stat?.isDirectory) {
      const { names, empty } = await namesOf(ctx, asPath);
      if (empty) ctx.note(`No .jsonl files in ${asPath}`);
      else found.push({ dir: asPath, names });
    } else if (stat && !stat.isFile) {
      found.push({ path: asPath, named: true, notAFile: true });
    } else if (stat || looksLikePath(input)) {
      found.push({ path: asPath, named: true });
    } else {
      try {
        found.push({ path: await resolveSessionRef(ctx, input), named: true });
      } catch (error) {
        const { exitCode, lines } = describeError(error);
        ctx.deps.stderr(lines.join("\n") + "\n");
        failed ||= exitCode;
      }
    }
  }
  return { targets: targetsOf(ctx, found), failed };
}

async function* targetsOf(ctx: CliContext, found: (Target | Directory)[]): AsyncGenerator<Target> {
  // One directory alone has no path twice: no set of every path.
  const seen = found.length > 1 ? new Set<string>() : null;
  for (const item of found) {
    if ("path" in item) {
      if (seen === null || !seen.has(item.path)) yield item;
      seen?.add(item.path);
      continue;
    }
    for await (const path of filesOf(ctx, item)) {
      if (seen === null || !seen.has(path)) yield { path, named: false };
      seen?.add(path);
    }
  }
}
