/**
 * Progress of long scans: a redrawn line on a terminal; off a terminal, one plain note once a
 * scan has run for over a second (a cold first `search` in a pipe is otherwise silent for seconds).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CliContext } from "../../src/cli/context.ts";
import { startProgress } from "../../src/cli/progress.ts";
import { harnessDeps } from "./_harness.ts";

/** A context whose clock reads `clock.ms`, and what it wrote on stderr. */
function setup(options: { stderrIsTTY: boolean; quiet?: boolean }) {
  const out = { stdout: "", stderr: "" };
  const clock = { ms: 0 };
  const deps = { ...harnessDeps({ stderrIsTTY: options.stderrIsTTY }, out), now: () => new Date(clock.ms) };
  return { ctx: new CliContext(deps, { quiet: options.quiet }), clock, out };
}

test("startProgress() off a terminal notes once, on one line, when a scan runs over a second", () => {
  const { ctx, clock, out } = setup({ stderrIsTTY: false });
  const progress = startProgress(ctx, "Searching sessions");
  progress.update(0, 40);
  clock.ms = 900;
  progress.update(5, 40);
  assert.equal(out.stderr, "");
  clock.ms = 1200;
  progress.update(6, 40);
  clock.ms = 3000;
  progress.update(30, 40);
  progress.end();
  assert.equal(out.stderr, "pi-session: Searching sessions: 34 of 40 files still to read into the catalog (later runs reuse it)…\n");
});

test("startProgress() off a terminal says nothing for a quick scan, a finished one, or with -q", () => {
  const quick = setup({ stderrIsTTY: false });
  const progress = startProgress(quick.ctx, "Reading sessions");
  quick.clock.ms = 5000;
  progress.update(40, 40);
  assert.equal(quick.out.stderr, "");
  const quiet = setup({ stderrIsTTY: false, quiet: true });
  const silent = startProgress(quiet.ctx, "Reading sessions");
  quiet.clock.ms = 5000;
  silent.update(1, 40);
  assert.equal(quiet.out.stderr, "");
});

test("startProgress() on a terminal draws a line it wipes at the end", () => {
  const { ctx, clock, out } = setup({ stderrIsTTY: true });
  const progress = startProgress(ctx, "Reading usage");
  clock.ms = 600;
  progress.update(3, 40);
  progress.end();
  assert.equal(out.stderr, "\r\x1b[KReading usage 3/40\r\x1b[K");
});
