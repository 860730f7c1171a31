/**
 * Every command of the CLI, in the order `--help` lists them.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { contextCommand } from "./context.ts";
import { infoCommand } from "./info.ts";
import { listCommand } from "./list.ts";
import { recentCommand } from "./recent.ts";

export const COMMANDS: CommandSpec[] = [
  listCommand,
  recentCommand,
  infoCommand,
  contextCommand,
];
