/**
 * `__healthcheck`: asks a running `serve` on this machine whether it is up (its /healthz), for
 * a container's HEALTHCHECK, where the minimal image has no curl or shell. Exit 0 up, 1 not.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";

export const healthcheckCommand: CommandSpec = {
  name: "__healthcheck",
  summary: "Exit 0 when `pi-session serve` answers on this machine (for container health checks)",
  hidden: true,
  options: [{ flags: "--port <port>", description: "the port serve listens on", default: "8377" }],
  examples: ["pi-session __healthcheck --port 8377"],
  async run(ctx, _args, opts) {
    const port = Number(opts.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError("bad-option", `--port must be a whole number from 1 to 65535, not "${opts.port}"`, "Pass the port serve listens on");
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) });
      if (response.ok && (await response.text()).trim() === "ok") return 0;
      ctx.note(`pi-session: /healthz answered ${response.status}`);
    } catch (error) {
      ctx.note(`pi-session: nothing answers on 127.0.0.1:${port} (${(error as Error).message})`);
    }
    return 1;
  },
};
