/**
 * The picker's edges: loading a scope's sessions progressively (rows appear as files are
 * read), and performing renames and deletes with the same helpers `name` and `delete` use.
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";
import { resolvePath } from "../../../core/storage/paths.ts";
import { allSessionFiles, mapConcurrent, readSessionInfo, sessionFilesIn, sortByModified } from "../../../session/list-sessions.ts";
import { CliContext } from "../../context.ts";
import { describeError } from "../../errors.ts";
import { openForAppend, writing } from "../../session-write.ts";
import { moveToTrash } from "../../trash.ts";
import type { Apply, PromptProgram } from "../prompt.ts";
import { renderPick } from "./render.ts";
import { effectFailed, initialPickState, type PickEffect, type PickState, reducePick, type Scope, sessionDeleted, sessionRenamed, sessionsLoaded } from "./state.ts";

/** How often (ms) partial lists are published while loading. */
const PUBLISH_EVERY = 80;

function message(error: unknown): string {
  return describeError(error).lines[0].replace(/^pi-session: /, "");
}

/** Reads the sessions of `scope`, publishing sorted partial lists as they come in. */
async function loadScope(ctx: CliContext, scope: Scope, apply: Apply<PickState>, signal: AbortSignal): Promise<void> {
  const choice = await ctx.sessionDir();
  const files = scope === "all" && !choice.custom ? await allSessionFiles(ctx.fs, ctx.agentDir) : await sessionFilesIn(ctx.fs, choice.dir);
  // A custom session dir holds every project's sessions: "current" keeps this cwd's.
  const processCwd = ctx.deps.storage.processCwd;
  const wanted = scope === "current" && choice.custom ? resolvePath(processCwd, ctx.cwd) : undefined;
  const keep = (info: SessionInfo) => wanted === undefined || (info.cwd !== "" && resolvePath(processCwd, info.cwd) === wanted);
  const found: SessionInfo[] = [];
  let loaded = 0;
  let published = -Infinity;
  const publish = (done: boolean) => {
    published = performance.now();
    const sessions = sortByModified([...found]);
    apply((state) => sessionsLoaded(state, scope, { sessions, loaded, total: files.length, done }));
  };
  publish(files.length === 0);
  await mapConcurrent(files, 16, async (path) => {
    if (signal.aborted) return;
    const info = await readSessionInfo(ctx.fs, path, { withText: true });
    loaded++;
    if (info && keep(info)) found.push(info);
    if (loaded < files.length && performance.now() - published >= PUBLISH_EVERY) publish(false);
  });
  if (!signal.aborted) publish(true);
}

/** `ctx` must have resolved its session dir already; `quiet` writes (its notes would break the screen). */
async function perform(ctx: CliContext, quiet: CliContext, effect: PickEffect, apply: Apply<PickState>, signal: AbortSignal): Promise<void> {
  if (effect.kind === "load") {
    await loadScope(ctx, effect.scope, apply, signal).catch((error) => apply((state) => effectFailed(state, `Cannot list sessions: ${message(error)}`)));
    return;
  }
  const { path } = effect;
  try {
    if (effect.kind === "rename") {
      const manager = await openForAppend(quiet, path);
      await writing(path, () => manager.appendSessionInfo(effect.name));
      const info = await readSessionInfo(ctx.fs, path, { withText: true });
      if (info) apply((state) => sessionRenamed(state, info));
    } else {
      const { via, trashPath } = await moveToTrash({ fs: ctx.fs, storage: ctx.deps.storage, exec: ctx.deps.exec, now: ctx.deps.now }, path);
      apply((state) => sessionDeleted(state, path, via === "trash-command" ? "Session moved to trash" : `Session moved to ${trashPath}`));
    }
  } catch (error) {
    const verb = effect.kind === "rename" ? "rename" : "delete";
    apply((state) => effectFailed(state, `Failed to ${verb}: ${message(error)}`));
  }
}

/**
 * The picker as a runnable prompt over `ctx`; it exits with the chosen session.
 *
 * @example
 * ```ts
 * // const exit = await ctx.deps.terminal!.run(pickProgram(ctx, { scope: "current", pageSize: 10 }));
 * ```
 */
export function pickProgram(ctx: CliContext, options: { scope: Scope; pageSize: number }): PromptProgram<PickState, PickEffect, SessionInfo> {
  // Notes (such as "rewritten as v3 first") would land in the middle of the screen.
  const quiet = new CliContext(ctx.deps, { ...ctx.options, quiet: true });
  const renderOptions = { now: ctx.deps.now(), home: ctx.deps.storage.home, colors: ctx.errColor };
  return {
    initial: initialPickState({ scope: options.scope, processCwd: ctx.deps.storage.processCwd, pageSize: options.pageSize }),
    reduce: reducePick,
    render: (state, size) => renderPick(state, size, renderOptions),
    perform: (effect, apply, signal) => perform(ctx, quiet, effect, apply, signal),
  };
}
