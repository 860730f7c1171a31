/**
 * Runs the CLI in-process for tests: `run(argv, deps)` over a `MemoryFileSystem` (or any
 * file system), with output captured, time pinned, no terminal and no external programs.
 * @module
 */
import type { CliDeps, ExecFn } from "../../src/cli/deps.ts";
import { run } from "../../src/cli/run.ts";
import { defaultSessionDir } from "../../src/core/storage/layout.ts";
import { dirName } from "../../src/core/storage/paths.ts";
import { type FileSystem, FsError } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";

export const HOME = "/home/u";
export const CWD = "/work/proj";
export const AGENT_DIR = `${HOME}/.pi/agent`;
/** The pinned "now" of every harness run. */
export const NOW = new Date("2026-01-02T03:04:05.000Z");

/** The default session folder of `cwd` under the harness's agent dir. */
export function sessionDir(cwd = CWD): string {
  return defaultSessionDir(cwd, AGENT_DIR, CWD);
}

/** A memory file system whose mtimes are `NOW`. */
export function memoryFs(): MemoryFileSystem {
  return new MemoryFileSystem({ clock: () => NOW.getTime(), cwd: CWD });
}

/** What one run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HarnessOptions {
  fs?: FileSystem;
  env?: Record<string, string>;
  home?: string;
  processCwd?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  exec?: ExecFn;
  confirm?: (question: string) => Promise<boolean>;
  now?: Date;
}

/** An `exec` that finds no program (like a machine without `trash`). */
export const noExec: ExecFn = () => Promise.resolve({ code: null, stderr: "not found" });

/** The deps a harness run uses; exposed so a test can tweak one field. */
export function harnessDeps(options: HarnessOptions, out: { stdout: string; stderr: string }): CliDeps {
  const env = options.env ?? {};
  return {
    fs: options.fs ?? memoryFs(),
    storage: { env: (name) => env[name], home: options.home ?? HOME, processCwd: options.processCwd ?? CWD },
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    stdinIsTTY: options.stdinIsTTY ?? false,
    now: () => options.now ?? NOW,
    exec: options.exec ?? noExec,
    confirm: options.confirm,
  };
}

/** Runs `pi-session argv…` and returns the exit code and captured output. */
export async function runCli(argv: string[], options: HarnessOptions = {}): Promise<CliRun> {
  const out = { stdout: "", stderr: "" };
  const code = await run(argv, harnessDeps(options, out));
  return { code, ...out };
}

const encoder = new TextEncoder();

/** Writes `text` at `path`, creating parent folders. */
export async function writeText(fs: FileSystem, path: string, text: string | Uint8Array): Promise<void> {
  await fs.mkdir(dirName(path), { recursive: true });
  await fs.writeAtomic(path, typeof text === "string" ? encoder.encode(text) : text);
}

/** The whole file as bytes. */
export async function readBytes(fs: FileSystem, path: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) parts.push(chunk);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

/** The whole file as text. */
export async function readText(fs: FileSystem, path: string): Promise<string> {
  return new TextDecoder().decode(await readBytes(fs, path));
}

/** One JSON line per object, as session files hold them. */
export function jsonl(...objects: object[]): string {
  return objects.map((o) => JSON.stringify(o) + "\n").join("");
}

/**
 * `fs` as seen by a user who may not write under `readOnlyDirs` (a failing wrapper, since
 * tests run as root, and root ignores permission bits). Reads pass through.
 */
export function readOnlyFs(fs: FileSystem, readOnlyDirs: string[]): FileSystem {
  const denied = (path: string) => readOnlyDirs.some((dir) => path === dir || path.startsWith(dir + "/"));
  const guard = (verb: string, ...paths: string[]) => {
    const path = paths.find(denied);
    if (path !== undefined) throw new FsError("PermissionDenied", path, `Cannot ${verb} "${path}": permission denied`);
  };
  return {
    read: (path, range) => fs.read(path, range),
    stat: (path) => fs.stat(path),
    list: (dir) => fs.list(dir),
    append: async (path, data, options) => (guard("append to", path), fs.append(path, data, options)),
    writeAtomic: async (path, data, options) => (guard("write", path), fs.writeAtomic(path, data, options)),
    rename: async (from, to) => (guard("rename", from, to), fs.rename(from, to)),
    remove: async (path) => (guard("remove", path), fs.remove(path)),
    mkdir: async (path, options) => (guard("create directory", path), fs.mkdir(path, options)),
    link: async (existing, newPath) => (guard("link", newPath), fs.link(existing, newPath)),
    realPath: (path) => fs.realPath(path),
  };
}

/** A SHA-256 of the file (or of every file under a directory, by path), to prove nothing changed. */
export async function fingerprint(fs: FileSystem, path: string): Promise<string> {
  const stat = await fs.stat(path);
  if (stat === null) return "missing";
  if (stat.isFile) {
    const digest = await crypto.subtle.digest("SHA-256", (await readBytes(fs, path)) as Uint8Array<ArrayBuffer>);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  const names = (await fs.list(path)).map((e) => e.name).sort();
  const parts: string[] = [];
  for (const name of names) parts.push(`${name}=${await fingerprint(fs, `${path}/${name}`)}`);
  return parts.join("\n");
}

/** A version 3 header. */
export function header(id: string, cwd = CWD, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "session", version: 3, id, timestamp: "2025-06-01T10:00:00.000Z", cwd, ...extra };
}

/** A user message entry. */
export function userEntry(id: string, parentId: string | null, text: string): Record<string, unknown> {
  return { type: "message", id, parentId, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: text, timestamp: 1748772001000 } };
}

/** An assistant message entry. */
export function assistantEntry(id: string, parentId: string | null, text: string): Record<string, unknown> {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const message = { role: "assistant", content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "claude-test", usage, stopReason: "stop", timestamp: 1748772002000 };
  return { type: "message", id, parentId, timestamp: "2025-06-01T10:00:02.000Z", message };
}

/** Writes a session file in the default folder of `cwd` and returns its path. */
export async function addSession(
  fs: FileSystem,
  id: string,
  entries: object[] = [],
  options: { cwd?: string; dir?: string; text?: string } = {},
): Promise<string> {
  const cwd = options.cwd ?? CWD;
  const path = `${options.dir ?? sessionDir(cwd)}/2025-06-01T10-00-00-000Z_${id}.jsonl`;
  await writeText(fs, path, options.text ?? jsonl(header(id, cwd), ...entries));
  return path;
}
