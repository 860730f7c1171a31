/**
 * A `Terminal` for tests: feeds a fixed list of keys to a prompt, performing its effects
 * (and waiting for them) between keys, and records every frame it would have drawn.
 * @module
 */
import { keyOf, type Key } from "../../../src/cli/interactive/keys.ts";
import { type Apply, type Exit, type PromptProgram, type PromptState, type ScreenSize, takeEffects, type Terminal } from "../../../src/cli/interactive/prompt.ts";

export interface ScriptedTerminal extends Terminal {
  /** Every frame drawn: the first, then one after each key. */
  frames: string[][];
  /** The frame of the initial state of the last prompt run, before any of its effects (what a real terminal draws first). */
  initialFrame?: string[];
}

/** Keys as `Key` objects or `keyOf` specs ("up", "ctrl+s", "a"). A prompt still open after the last key is cancelled. */
export function scriptedTerminal(script: (Key | string)[], size: ScreenSize = { columns: 100, rows: 30 }): ScriptedTerminal {
  const frames: string[][] = [];
  const terminal: ScriptedTerminal = { frames, size: () => size, run };
  async function run<S extends PromptState<E, R>, E, R>(program: PromptProgram<S, E, R>): Promise<Exit<R>> {
    const controller = new AbortController();
    let state = program.initial;
    terminal.initialFrame = program.render(state, size).lines;
    const pending: Promise<void>[] = [];
    const drain = () => {
      const [effects, next] = takeEffects<S, E>(state);
      state = next;
      for (const effect of effects) pending.push(program.perform!(effect, apply, controller.signal));
    };
    const apply: Apply<S> = (change) => {
      state = change(state);
      drain();
    };
    const settle = async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    };
    drain();
    await settle();
    frames.push(program.render(state, size).lines);
    for (const key of script) {
      if (state.exit) break;
      state = program.reduce(state, typeof key === "string" ? keyOf(key) : key);
      drain();
      await settle();
      frames.push(program.render(state, size).lines);
    }
    controller.abort();
    return state.exit ?? { kind: "cancel" };
  }
  return terminal;
}
