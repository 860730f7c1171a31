/**
 * Every command of the CLI, in the order `--help` lists them. Each is loaded only when
 * needed: a run imports just the command it executes, which keeps start-up short for the
 * single executable (`--version` and a small `info` must feel instant).
 * @module
 */
import type { CommandSpec } from "../command.ts";

/** Command name -> loader of its spec. */
export const COMMAND_LOADERS: readonly (readonly [string, () => Promise<CommandSpec>])[] = [
  ["list", async () => (await import("./list.ts")).listCommand],
  ["pick", async () => (await import("./pick.ts")).pickCommand],
  ["recent", async () => (await import("./recent.ts")).recentCommand],
  ["resume", async () => (await import("./resume.ts")).resumeCommand],
  ["info", async () => (await import("./info.ts")).infoCommand],
  ["show", async () => (await import("./show.ts")).showCommand],
  ["tree", async () => (await import("./tree.ts")).treeCommand],
  ["context", async () => (await import("./context.ts")).contextCommand],
  ["fork", async () => (await import("./fork.ts")).forkCommand],
  ["clone", async () => (await import("./clone.ts")).cloneCommand],
  ["name", async () => (await import("./name.ts")).nameCommand],
  ["label", async () => (await import("./label.ts")).labelCommand],
  ["delete", async () => (await import("./delete.ts")).deleteCommand],
  ["prune", async () => (await import("./prune.ts")).pruneCommand],
  ["du", async () => (await import("./du.ts")).duCommand],
  ["migrate", async () => (await import("./migrate.ts")).migrateCommand],
  ["check", async () => (await import("./check.ts")).checkCommand],
  ["repair", async () => (await import("./repair.ts")).repairCommand],
  ["move", async () => (await import("./move.ts")).moveCommand],
  ["export", async () => (await import("./export.ts")).exportCommand],
  ["stats", async () => (await import("./stats.ts")).statsCommand],
  ["blocks", async () => (await import("./blocks.ts")).blocksCommand],
  ["otel", async () => (await import("./otel.ts")).otelCommand],
  ["search", async () => (await import("./search.ts")).searchCommand],
  ["files", async () => (await import("./files.ts")).filesCommand],
  ["serve", async () => (await import("./serve.ts")).serveCommand],
  ["index", async () => (await import("./index.ts")).indexCommand],
  ["mcp", async () => (await import("./mcp.ts")).mcpCommand],
  ["completions", async () => (await import("./completions.ts")).completionsCommand],
  ["__healthcheck", async () => (await import("./healthcheck.ts")).healthcheckCommand],
  ["__complete-sessions", async () => (await import("./complete-sessions.ts")).completeSessionsCommand],
];

/** The specs of the named commands (all of them when `names` is omitted), in listing order. */
export function loadCommands(names?: readonly string[]): Promise<CommandSpec[]> {
  return Promise.all(COMMAND_LOADERS.filter(([name]) => !names || names.includes(name)).map(([, load]) => load()));
}
