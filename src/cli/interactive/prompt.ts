/**
 * The shape every interactive prompt has: a pure reducer over keys, a pure render, effects
 * the state asks for (performed outside), and an exit value. `Terminal` runs one on a screen.
 * @module
 */
import type { Key } from "./keys.ts";

/** How a prompt ended: a chosen value, or cancelled (Escape, Ctrl+C). */
export type Exit<R> = { kind: "done"; value: R } | { kind: "cancel" };

/** What every prompt state carries besides its own fields. */
export interface PromptState<E, R> {
  /** Work the state asks for (a write, a load); the runner takes it out and performs it. */
  readonly effects: readonly E[];
  readonly exit?: Exit<R>;
}

/** Terminal size in cells. */
export interface ScreenSize {
  columns: number;
  rows: number;
}

/** One drawn screen: lines no wider than the terminal, and the line the cursor ends on. */
export interface Frame {
  lines: string[];
  /** Index in `lines` of the line the text cursor sits at the end of (an input line). */
  cursor: number;
}

/** Applies a change to the current state (from effects, which finish later). */
export type Apply<S> = (change: (state: S) => S) => void;

/** A prompt: pure `reduce` and `render`, plus the impure edges the runner calls. */
export interface PromptProgram<S extends PromptState<E, R>, E, R> {
  initial: S;
  reduce(state: S, key: Key): S;
  render(state: S, size: ScreenSize): Frame;
  /**
   * Performs one effect (the initial state's too); results come back through `apply`, later.
   * `signal` aborts when the prompt closes. Expected failures should become state.
   */
  perform?(effect: E, apply: Apply<S>, signal: AbortSignal): Promise<void>;
  /** The state for a new terminal size (e.g. rows per page); the frame is redrawn after it. */
  resize?(state: S, size: ScreenSize): S;
}

/** Somewhere to run prompts: the real terminal (`terminal.ts`) or a script in tests. */
export interface Terminal {
  size(): ScreenSize;
  run<S extends PromptState<E, R>, E, R>(program: PromptProgram<S, E, R>): Promise<Exit<R>>;
}

/** Takes the pending effects out of a state. */
export function takeEffects<S extends PromptState<E, unknown>, E>(state: S): [readonly E[], S] {
  return state.effects.length === 0 ? [[], state] : [state.effects, { ...state, effects: [] }];
}
