/**
 * `completions`: prints a completion script for bash, zsh or fish, generated from the
 * commands themselves, so new commands and flags complete without editing any list.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { completionModel, SHELLS } from "../completion/mod.ts";
import { CliError } from "../errors.ts";

const INSTALL: Record<string, string> = {
  bash: "add `source <(pi-session completions bash)` to ~/.bashrc",
  zsh: "add `source <(pi-session completions zsh)` to ~/.zshrc (after compinit), or save it as _pi-session on $fpath",
  fish: "save it as ~/.config/fish/completions/pi-session.fish",
};

/** `pi-session completions bash|zsh|fish` */
export const completionsCommand: CommandSpec = {
  name: "completions",
  summary: "Print a shell completion script (bash, zsh or fish)",
  args: ["<shell>"],
  examples: ["source <(pi-session completions bash)", "pi-session completions zsh > ~/.zfunc/_pi-session", "pi-session completions fish > ~/.config/fish/completions/pi-session.fish"],
  async run(ctx, [shell]) {
    const write = SHELLS[shell];
    if (!write) {
      throw new CliError("bad-shell", `Cannot write completions for "${shell}"`, `Pass one of: ${Object.keys(SHELLS).join(", ")}`);
    }
    // Imported here, not at the top: run.ts imports every command, this one included.
    const { buildProgram } = await import("../run.ts");
    const { loadCommands } = await import("./mod.ts");
    ctx.deps.stdout(write(completionModel(buildProgram(ctx.deps, () => {}, await loadCommands()), Object.keys(SHELLS))));
    if (ctx.deps.stdoutIsTTY) ctx.note(`To use it, ${INSTALL[shell]}`);
    return 0;
  },
};
