/**
 * `pick`: the interactive session picker (pi's /resume). It draws on stderr and prints only
 * the chosen session's path (or id) on stdout, so `pi --session "$(pi-session pick)"` works.
 * @module
 */
import type { Catalog } from "../../catalog/catalog.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import type { QueryEnv } from "../../query/env.ts";
import { scopePlaces, withCatalog } from "../../query/scope.ts";
import { readFirstPage } from "../interactive/pick/first-page.ts";
import { knownSessions, pickProgram, quietContext } from "../interactive/pick/program.ts";
import type { PickEffect, PickState } from "../interactive/pick/state.ts";
import type { SessionInfo } from "../../core/info/session-info.ts";
import { CANCELLED, requireTerminal } from "../interactive/require-terminal.ts";

/** Rows the picker shows at most (pi shows 10). */
const PAGE = 10;
/** Lines around the rows: header, two hint lines, query, blank, counter, and one spare. */
const CHROME = 7;

function pageSizeFor(rows: number): number {
  return Math.max(3, Math.min(PAGE, rows - CHROME));
}

/**
 * Runs `work` with a function that opens the env's catalog (`withCatalog`) when first called;
 * the catalog stays open until `work` is done.
 */
async function withCatalogWhenAsked<T>(env: QueryEnv, work: (catalog: () => Promise<Catalog>) => Promise<T>): Promise<T> {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let opening: Promise<Catalog> | undefined;
  let held: Promise<void> | undefined;
  const catalog = () =>
    (opening ??= new Promise<Catalog>((resolve, reject) => {
      held = withCatalog(env, async (opened) => {
        resolve(opened);
        await finished;
      });
      held.catch(reject);
    }));
  try {
    return await work(catalog);
  } finally {
    finish();
    await held;
  }
}

/**
 * Lets the user choose a session in the picker; null when they cancel. `what` and `hint` say
 * which command needs the terminal when there is none.
 */
export async function pickSession(ctx: CliContext, all: boolean, what: string, hint: string): Promise<{ path: string; id: string } | null> {
  const terminal = requireTerminal(ctx, what, hint);
  // Settings problems are reported now, before the screen is drawn.
  await ctx.sessionDir();
  const pageSize = pageSizeFor(terminal.size().rows);
  const scope = all ? "all" : "current";
  // One catalog for the whole prompt, opened when first needed. The first frame shows the first
  // page kept from the last run (drawn before the catalog is opened, and before @inquirer/core is
  // loaded: both are work on this thread, and loading that ahead only delayed the frame), else
  // what the catalog knew last time; the load then brings every session up to date.
  const quiet = quietContext(ctx);
  const firstPage = await readFirstPage(ctx, await scopePlaces(ctx, scope === "all"));
  const exit = await withCatalogWhenAsked(quiet, async (catalog) => {
    const known = firstPage ?? await knownSessions(quiet, await catalog(), scope);
    const program = pickProgram(ctx, { scope, pageSize, catalog, known });
    return terminal.run<PickState, PickEffect, SessionInfo>({ ...program, resize: (state, size) => ({ ...state, pageSize: pageSizeFor(size.rows) }) });
  });
  return exit.kind === "cancel" ? null : { path: exit.value.path, id: exit.value.id };
}

/** `pi-session pick [--all] [--print path|id]` */
export const pickCommand: CommandSpec = {
  name: "pick",
  summary: "Choose a session interactively (pi's /resume); prints its path",
  options: [
    { flags: "-a, --all", description: "start with the sessions of every project (Tab switches)" },
    { flags: "--print <what>", description: "what to print for the chosen session", choices: ["path", "id"], default: "path" },
  ],
  examples: ['pi --session "$(pi-session pick)"', "pi-session pick --all --print id", 'pi-session show "$(pi-session pick)" | less'],
  async run(ctx, _args, opts) {
    const chosen = await pickSession(ctx, Boolean(opts.all), "pick", "Use `pi-session list` (or `list --json`) where there is no terminal");
    if (chosen === null) return CANCELLED;
    ctx.out(opts.print === "id" ? chosen.id : chosen.path);
    return 0;
  },
};
