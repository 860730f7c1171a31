/**
 * The only code that touches the terminal: runs a `PromptProgram` with `@inquirer/core`
 * (raw mode, key decoding, redraw, cursor and mode restored on every exit), drawing on the
 * output stream it is given (stderr), so stdout stays free for the result.
 * @module
 */
import type { ReadStream, WriteStream } from "node:tty";
import type { Key } from "./keys.ts";
import { type Apply, type Exit, type Frame, type PromptProgram, type PromptState, type ScreenSize, takeEffects, type Terminal } from "./prompt.ts";

/** What readline reports for a key press. */
interface RawKey {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** Minimal view of Node's readline interface that the workarounds below need. */
interface Readline {
  line: string;
  cursor: number;
  input: NodeJS.EventEmitter;
}

const NAMES: Record<string, string> = { return: "enter", enter: "enter" };

/**
 * Readline's decoded key, plus the kitty (`ESC [ 111 ; 6 u`) and xterm (`ESC [ 27 ; 6 ; 111 ~`)
 * forms that readline leaves unnamed: the only ways a terminal tells Shift+Ctrl+O from Ctrl+O.
 * (`KeyAssembler` first joins the pieces readline may cut them into.)
 */
export function toKey(raw: RawKey): Key {
  const sequence = raw.sequence ?? "";
  // Readline names sequences it does not know "undefined" (the string).
  const known = raw.name !== undefined && raw.name !== "undefined" ? raw.name : undefined;
  const extended = known === undefined ? extendedKey(sequence) : undefined;
  if (extended) {
    const bits = extended.modifiers - 1;
    const name = String.fromCodePoint(extended.code).toLowerCase();
    return { name, ctrl: (bits & 4) !== 0, meta: (bits & 2) !== 0, shift: (bits & 1) !== 0, text: "" };
  }
  // deno-lint-ignore no-control-regex
  const printable = [...sequence].length === 1 && !/[\u0000-\u001f\u007f-\u009f]/.test(sequence);
  const name = known ? NAMES[known] ?? known : printable ? sequence : "";
  // A lone Escape arrives flagged as Meta.
  const meta = Boolean(raw.meta) && name !== "escape";
  return { name, ctrl: Boolean(raw.ctrl), meta, shift: Boolean(raw.shift), text: printable ? sequence : "" };
}

function extendedKey(sequence: string): { code: number; modifiers: number } | undefined {
  // deno-lint-ignore no-control-regex
  const kitty = /^\x1b\[(\d+);(\d+)u$/.exec(sequence);
  if (kitty) return { code: Number(kitty[1]), modifiers: Number(kitty[2]) };
  // xterm's modifyOtherKeys form: ESC [ 27 ; modifiers ; code ~
  // deno-lint-ignore no-control-regex
  const xterm = /^\x1b\[27;(\d+);(\d+)~$/.exec(sequence);
  if (xterm) return { code: Number(xterm[2]), modifiers: Number(xterm[1]) };
  return undefined;
}

/**
 * Puts back together the extended key sequences readline cuts up: it reports xterm's
 * `ESC [ 27 ; 6 ; 111 ~` as `ESC [ 27 ; 6 ;` then `1`, `1`, `1`, `~`, and Deno's readline
 * cuts kitty's `ESC [ 111 ; 6 u` the same way. An unfinished `ESC [` sequence of digits and
 * semicolons waits for the rest; any other key ends the wait and counts as itself.
 */
export class KeyAssembler {
  #pending: string | undefined;

  /** The key `raw` completes, or undefined while a cut-up sequence is still arriving. */
  feed(raw: RawKey): Key | undefined {
    const sequence = raw.sequence ?? "";
    if (this.#pending !== undefined) {
      if (/^[\d;]$/.test(sequence)) {
        this.#pending += sequence;
        return undefined;
      }
      const whole = this.#pending + sequence;
      this.#pending = undefined;
      if (/^[~u]$/.test(sequence) && extendedKey(whole)) return toKey({ sequence: whole });
    }
    const unnamed = raw.name === undefined || raw.name === "undefined";
    // deno-lint-ignore no-control-regex
    if (unnamed && /^\x1b\[[\d;]+$/.test(sequence)) {
      this.#pending = sequence;
      return undefined;
    }
    return toKey(raw);
  }
}

/** The streams a terminal prompt runs on: keys from `input`, frames to `output`. */
export interface TerminalStreams {
  input: ReadStream;
  output: WriteStream;
}

/**
 * A `Terminal` over real TTY streams.
 *
 * @example
 * ```ts
 * // const terminal = createTerminal({ input: process.stdin, output: process.stderr });
 * // const exit = await terminal.run(program);
 * ```
 */
export function createTerminal(streams: TerminalStreams): Terminal {
  const size = (): ScreenSize => {
    const now = liveSize(streams.output);
    // A terminal that reports 0×0 (`script` does) has an unknown size.
    return { columns: now.columns || 80, rows: now.rows || 24 };
  };
  return { size, run: (program) => runOnTerminal(streams, size, program) };
}

interface DenoTerminal {
  consoleSize(): { columns: number; rows: number };
  addSignalListener(signal: "SIGWINCH", handler: () => void): void;
  removeSignalListener(signal: "SIGWINCH", handler: () => void): void;
}

/** Deno's own API where we run on Deno: its Node streams do not follow resizes. */
function deno(): DenoTerminal | undefined {
  return (globalThis as { Deno?: DenoTerminal }).Deno;
}

/** The terminal's size now (Node and Bun: asked of the stream; Deno: of the console). */
function liveSize(output: WriteStream): { columns: number; rows: number } {
  try {
    const runtime = deno();
    if (runtime) return runtime.consoleSize();
    const [columns, rows] = output.getWindowSize();
    return { columns, rows };
  } catch {
    return { columns: output.columns, rows: output.rows };
  }
}

/** Calls `listener` when the terminal is resized (SIGWINCH); returns the way to stop. */
function onResize(listener: () => void): () => void {
  const runtime = deno();
  if (runtime) {
    runtime.addSignalListener("SIGWINCH", listener);
    return () => runtime.removeSignalListener("SIGWINCH", listener);
  }
  // Node and Bun deliver it as a process signal event.
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  if (!proc || proc.platform === "win32") return () => {};
  proc.on("SIGWINCH", listener);
  return () => void proc.off("SIGWINCH", listener);
}

type Outcome<R> = Exit<R> | { kind: "error"; error: unknown };

let inquirer: Promise<typeof import("@inquirer/core")> | undefined;

/**
 * `@inquirer/core`, loaded on first use so that non-interactive commands start without it. An
 * interactive command may call this early, so that loading overlaps its own preparations.
 */
export function loadInquirer(): Promise<typeof import("@inquirer/core")> {
  return inquirer ??= import("@inquirer/core");
}

/**
 * Draws `frame` at once and puts the cursor back where it started, so that the prompt's first
 * render (the same frame, its lines trimmed at the end as the prompt trims them) lands exactly
 * over it: setting up @inquirer/core and readline takes about 15 ms in the Bun binary, and
 * the list is on screen meanwhile. Draws nothing (returns false) where the prompt would lay the
 * frame out otherwise: a line wider than the screen (it breaks it), or a cursor line as wide as
 * the screen (it adds a line after it).
 */
function drawAhead(output: WriteStream, frame: Frame, columns: number, textWidth: (text: string) => number): boolean {
  const lines = frame.lines.map((line) => line.trimEnd());
  if (lines.some((line, i) => textWidth(line) > columns || (i === frame.cursor && textWidth(line) >= columns))) return false;
  output.write(lines.join("\n") + "\r" + (lines.length > 1 ? `\x1b[${lines.length - 1}A` : ""));
  return true;
}

async function runOnTerminal<S extends PromptState<E, R>, E, R>(
  streams: TerminalStreams,
  size: () => ScreenSize,
  program: PromptProgram<S, E, R>,
): Promise<Exit<R>> {
  // Loaded here, not with this module: every command loads this module, and string-width's
  // set-up is a few milliseconds of start-up (a prompt's render loads it anyway).
  const { textWidth } = await import("../../render/text-width.ts");
  // Raw mode first: keys pressed while the prompt starts (Ctrl+C too) wait for it, unechoed.
  streams.input.setRawMode(true);
  let drawn = false;
  let inquirer;
  try {
    drawn = drawAhead(streams.output, program.render(program.initial, size()), size().columns, textWidth);
    inquirer = await loadInquirer();
  } catch (error) {
    // Clear what was drawn ahead (from the cursor to the end of the screen).
    if (drawn) streams.output.write("\x1b[J");
    streams.input.setRawMode(false);
    throw error;
  }
  const { createPrompt, useEffect, useRef, useState } = inquirer;
  const aborter = new AbortController();
  const prompt = createPrompt<Outcome<R>, null>((_config, done) => {
    const box = useRef({ state: program.initial, failure: undefined as { error: unknown } | undefined, closed: false });
    const renders = useRef(0);
    const [, rerender] = useState(0);
    useEffect((rl) => {
      const readline = rl as unknown as Readline;
      const keys = new KeyAssembler();
      const apply: Apply<S> = (change) => {
        if (box.current.closed) return;
        try {
          const [effects, state] = takeEffects<S, E>(change(box.current.state));
          box.current.state = state;
          for (const effect of effects) {
            program.perform?.(effect, apply, aborter.signal).catch((error) => apply(() => { throw error; }));
          }
        } catch (error) {
          // A bug: end the prompt (the terminal is restored), then rethrow.
          box.current.failure ??= { error };
        }
        rerender(++renders.current);
      };
      // Readline edits its own line buffer as keys arrive, and Ctrl+D on an empty buffer
      // closes it (which would end the prompt): give it a character to delete instead.
      const guard = (_text: string, raw?: RawKey) => {
        if (raw?.ctrl && raw.name === "d") {
          readline.line = " ";
          readline.cursor = 0;
        }
      };
      const onKey = (_text: string, raw?: RawKey) => {
        // The program keeps its own input text; readline's buffer must not shift the cursor.
        readline.line = "";
        readline.cursor = 0;
        const key = raw && keys.feed(raw);
        if (key) apply((state) => program.reduce(state, key));
      };
      readline.input.prependListener("keypress", guard);
      readline.input.on("keypress", onKey);
      // A resize re-flows what is on the screen, so the prompt's own erase would miss lines:
      // clear the screen, and draw the frame for the new size from its top.
      const stopResize = onResize(() => {
        if (box.current.closed) return;
        streams.output.write("\x1b[H\x1b[2J");
        apply((state) => (program.resize ? program.resize(state, size()) : state));
      });
      apply((state) => state); // performs the initial state's effects
      return () => {
        box.current.closed = true;
        stopResize();
        aborter.abort();
        readline.input.removeListener("keypress", guard);
        readline.input.removeListener("keypress", onKey);
      };
    }, []);
    const { state, failure } = box.current;
    if (failure) done({ kind: "error", error: failure.error });
    else if (state.exit) done(state.exit);
    const frame = program.render(state, size());
    const top = frame.lines.slice(0, frame.cursor + 1).join("\n");
    const bottom = frame.lines.slice(frame.cursor + 1).join("\n");
    return bottom ? [top, bottom] : top;
  });
  let outcome: Outcome<R>;
  try {
    outcome = await prompt(null, { input: streams.input, output: streams.output, clearPromptOnDone: true });
  } catch (error) {
    // Ctrl+C (readline's SIGINT) and a closed input end the prompt as a cancel.
    if (error instanceof Error && error.name === "ExitPromptError") return { kind: "cancel" };
    throw error;
  } finally {
    aborter.abort();
    // The prompt's readline leaves raw mode as it closes; this covers a prompt that failed to start.
    streams.input.setRawMode(false);
  }
  if (outcome.kind === "error") throw outcome.error;
  return outcome;
}
