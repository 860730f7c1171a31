/**
 * The facts about processes that a lock needs to tell a crashed holder from a live one: this
 * process's pid, host and start time, and whether another pid on this host still runs (and
 * since when). Every runtime call for them lives here; on Linux the start time comes from
 * `/proc/<pid>/stat`, elsewhere it is unknown and a lock falls back to its heartbeat's age.
 * @module
 */

import { readFileSync, readlinkSync } from "node:fs";

/** What `withFileLock` asks about processes; tests inject their own. */
export interface ProcessProbe {
  readonly pid: number;
  /** The host's name; empty when it cannot be read (then no holder counts as on this host). */
  readonly hostname: string;
  /**
   * Which pid namespace the pids belong to (Linux: the `/proc/self/ns/pid` link), so a container
   * sharing the folder and the host name is not asked about by pid; `undefined` if unknown.
   */
  readonly pidSpace: string | undefined;
  /** When this process started, as an opaque token (equal tokens mean the same process); `undefined` if unknown. */
  readonly startTime: string | undefined;
  /** Whether `pid` runs on this host: `false` when surely gone, `undefined` when it cannot be told. */
  isAlive(pid: number): boolean | undefined;
  /** The start-time token of a running `pid`, or `undefined` if unknown. */
  startTimeOf(pid: number): string | undefined;
}

/**
 * A process's state and start time from the text of `/proc/<pid>/stat`. The name field can hold
 * spaces and parentheses, so fields are counted from the last `)`: state is field 3, start time 22.
 */
export function parseProcStat(text: string): { state: string; startTime: string } | undefined {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

/** Linux's answer from `/proc`: `null` when there is no `/proc` to ask. */
function procStat(pid: number | "self", readText: (path: string) => string): { state: string; startTime: string } | undefined | null {
  try {
    return parseProcStat(readText(`/proc/${pid}/stat`));
  } catch (error) {
    const code = (error as { code?: string; name?: string }).code ?? (error as { name?: string }).name;
    if (code === "ENOENT" || code === "NotFound") {
      try {
        readText("/proc/self/stat");
        return undefined; // /proc works, the pid is not there
      } catch {
        return null;
      }
    }
    return null;
  }
}

/** Gone, a zombie or dead: a killed process stays a zombie until its parent reaps it. */
const DEAD_STATES = new Set(["Z", "X", "x"]);

function probeWith(
  pid: number,
  host: string,
  readText: (path: string) => string,
  readLink: (path: string) => string,
  signalZero: ((pid: number) => boolean | undefined) | undefined,
): ProcessProbe {
  const self = procStat("self", readText);
  let pidSpace: string | undefined;
  try {
    pidSpace = readLink("/proc/self/ns/pid");
  } catch {
    // No /proc: pids are the host's own.
  }
  return {
    pid,
    hostname: host,
    pidSpace,
    startTime: self?.startTime,
    isAlive(other) {
      const stat = procStat(other, readText);
      if (stat === undefined) return false;
      if (stat !== null) return !DEAD_STATES.has(stat.state);
      return signalZero?.(other);
    },
    startTimeOf(other) {
      return procStat(other, readText)?.startTime;
    },
  };
}

/** Signal 0 checks that a pid exists without touching it: ESRCH means gone, EPERM someone else's. */
function nodeSignalZero(pid: number): boolean | undefined {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "ESRCH" ? false : code === "EPERM" ? true : undefined;
  }
}

/**
 * The host's name from `node:os`, loaded only when a lock asks (loading it with the binary took
 * 1-3 ms of every start, Bun 1.4.5); where the runtime cannot load it so (Node before 20.16),
 * the kernel's on Linux, else empty.
 */
function hostName(): string {
  const os = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.("node:os") as { hostname(): string } | undefined;
  if (os) return os.hostname();
  try {
    return readFileSync("/proc/sys/kernel/hostname", "latin1").trim();
  } catch {
    return "";
  }
}

/** The probe for Node (and Bun, which runs the same calls natively). */
export function nodeProcessProbe(): ProcessProbe {
  return probeWith(process.pid, hostName(), (path) => readFileSync(path, "latin1"), readlinkSync, nodeSignalZero);
}

// Loose on purpose: the project type-checks against Node's types, where Deno does not exist.
// deno-lint-ignore no-explicit-any
declare const Deno: any;

/** The probe for Deno, on `Deno.*` only (Deno has no signal 0, so without `/proc` liveness is unknown). */
export function denoProcessProbe(): ProcessProbe {
  let host = "";
  try {
    host = Deno.hostname();
  } catch {
    // Without --allow-sys: every holder looks remote, so locks go stale by age alone.
  }
  return probeWith(Deno.pid, host, (path) => Deno.readTextFileSync(path), (path) => Deno.readLinkSync(path), undefined);
}

let detected: ProcessProbe | undefined;

/** The probe for the runtime this code runs on, made once. */
export function detectProcessProbe(): ProcessProbe {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  detected ??= runtime.Deno !== undefined && runtime.Bun === undefined ? denoProcessProbe() : nodeProcessProbe();
  return detected;
}
