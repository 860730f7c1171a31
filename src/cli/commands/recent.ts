/**
 * `recent`: the path of the most recent session of the current directory, like `pi -c`
 * picks it (newest file among valid sessions).
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { mostRecentLocal } from "../../query/resolve/session-ref.ts";

export const recentCommand: CommandSpec = {
  name: "recent",
  checksLater: true,
  summary: "Print the path of the most recent session of the current directory (pi -c)",
  examples: ["pi-session recent", 'pi --session "$(pi-session recent)"'],
  async run(ctx) {
    const path = await mostRecentLocal(ctx);
    if (!path) {
      // A script reading the JSON gets a value it can test, not an empty stdout.
      if (ctx.json) ctx.outJson(null);
      ctx.note(`No session found for ${ctx.cwd}`);
      return 1;
    }
    if (ctx.json) ctx.outJson({ path });
    else ctx.out(path);
    return 0;
  },
};
