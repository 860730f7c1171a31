/**
 * Progress on stderr for long scans: on a terminal, a line drawn once a scan has run for half a
 * second, redrawn at most ten times a second, and wiped when done; elsewhere (a pipe, a log), one
 * plain note once a scan has run for a second, so a slow first run is not taken for a hang.
 * @module
 */
import type { CliContext } from "./context.ts";

const DELAY_MS = 500;
const EVERY_MS = 100;
/** Off a terminal: how long a scan runs before its one note. */
const NOTE_AFTER_MS = 1000;

/** A progress line for one scan. */
export interface Progress {
  update(done: number, total: number): void;
  /** Clears the line if one was drawn. */
  end(): void;
}

/**
 * A progress reporter labelled `label` ("Indexing sessions"); silent off a TTY and with `-q`.
 *
 * @example
 * ```ts
 * const progress = startProgress(ctx, "Reading sessions");
 * progress.update(10, 2400);
 * progress.end();
 * ```
 */
export function startProgress(ctx: CliContext, label: string): Progress {
  if (ctx.quiet) return { update() {}, end() {} };
  const started = ctx.deps.now().getTime();
  if (!ctx.deps.stderrIsTTY) {
    let noted = false;
    return {
      update(done, total) {
        if (noted || done >= total || ctx.deps.now().getTime() - started < NOTE_AFTER_MS) return;
        noted = true;
        ctx.note(`pi-session: ${label}: ${total - done} of ${total} files still to read into the catalog (later runs reuse it)…`);
      },
      end() {},
    };
  }
  let drawn = false;
  let last = 0;
  return {
    update(done, total) {
      const now = ctx.deps.now().getTime();
      if (now - started < DELAY_MS || (now - last < EVERY_MS && done < total)) return;
      last = now;
      drawn = true;
      ctx.deps.stderr(`\r\x1b[K${label} ${done}/${total}`);
    },
    end() {
      if (drawn) ctx.deps.stderr("\r\x1b[K");
      drawn = false;
    },
  };
}
