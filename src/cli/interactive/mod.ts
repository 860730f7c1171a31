/**
 * The interactive prompts (pi's /resume, /tree and /fork screens): pure reducers and renders
 * in `pick/`, `tree-nav/` and `fork-select/`, run on the terminal by `terminal.ts`.
 * @module
 */
export { chord, type Key, keyOf, typing } from "./keys.ts";
export type { Apply, Exit, Frame, PromptProgram, PromptState, ScreenSize, Terminal } from "./prompt.ts";
export { createTerminal, type TerminalStreams } from "./terminal.ts";
export { CANCELLED, requireTerminal } from "./require-terminal.ts";
export { pickProgram } from "./pick/program.ts";
export { navigateTree } from "./tree-nav/navigate.ts";
export { selectAndFork } from "./fork-select/select-and-fork.ts";
