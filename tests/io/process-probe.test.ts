/**
 * Tests for the process probe: `/proc/<pid>/stat` parsing, and the running runtime's probe
 * against itself and a child that has exited.
 * @module
 */

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { describe, it } from "node:test";
import { detectProcessProbe, parseProcStat } from "../../src/io/process-probe.ts";

describe("parseProcStat()", () => {
  it("parseProcStat() counts fields from the last parenthesis of the process name", () => {
    const rest = "S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21";
    assert.deepEqual(parseProcStat(`42 (odd) name) ${rest}`), { state: "S", startTime: "987654" });
    assert.deepEqual(parseProcStat(`42 (node) Z 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 55`), { state: "Z", startTime: "55" });
  });

  it("parseProcStat() gives undefined for a cut-off line", () => {
    assert.equal(parseProcStat("42 (node) S 1 2"), undefined);
  });
});

describe("detectProcessProbe()", () => {
  it("detectProcessProbe() sees this process alive, under its own start time", () => {
    const probe = detectProcessProbe();
    assert.ok(probe.pid > 0);
    assert.equal(probe.hostname, hostname(), "the host name node:os gives");
    assert.equal(probe.isAlive(probe.pid), true);
    assert.equal(probe.startTimeOf(probe.pid), probe.startTime);
    if (existsSync("/proc/self/stat")) assert.match(probe.startTime ?? "", /^\d+$/);
    if (existsSync("/proc/self/ns/pid")) assert.match(probe.pidSpace ?? "", /^pid:\[\d+\]$/);
  });

  it("detectProcessProbe() sees a child that was killed and reaped as gone", { skip: !existsSync("/proc/self/stat") && "Deno cannot tell without /proc" }, async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = child.pid!;
    const probe = detectProcessProbe();
    assert.equal(probe.isAlive(pid), true);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    assert.equal(probe.isAlive(pid), false);
    assert.equal(probe.startTimeOf(pid), undefined);
  });
});
