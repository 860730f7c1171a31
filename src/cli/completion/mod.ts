/**
 * Shell completion scripts for bash, zsh and fish, each written from one completion model
 * taken from the commander program.
 * @module
 */
import { bashScript } from "./bash.ts";
import { fishScript } from "./fish.ts";
import type { CompletionModel } from "./model.ts";
import { zshScript } from "./zsh.ts";

export { completionModel, type CompletionModel } from "./model.ts";

/** A script writer per supported shell. */
export const SHELLS: Record<string, (model: CompletionModel) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };
