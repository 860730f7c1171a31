/**
 * What every command works with once the global flags are read: where sessions live,
 * the effective cwd, output mode and colours, and helpers to print data and notes.
 * @module
 */
import { resolveAgentDir, resolveSessionDir, type SessionDirChoice } from "../core/storage/layout.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import { mergeSettings, parseSettings } from "../core/storage/settings.ts";
import type { FileSystem } from "../io/file-system.ts";
import { readBytes } from "../catalog/read-bytes.ts";
import type { CliDeps } from "./deps.ts";
import { CliError } from "./errors.ts";
import { type Colors, createColors } from "../render/colors.ts";
import { printable } from "../render/control-chars.ts";

/** The global flags of SPEC §4. */
export interface GlobalOptions {
  sessionDir?: string;
  agentDir?: string;
  cwd?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
}

export type { Colors };

/** The version of every `--json` shape (docs/JSON.md, docs/schema/); bumped on any change that is not an addition. */
export const JSON_SCHEMA_VERSION = 1;

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await readBytes(fs, path));
  } catch {
    return undefined;
  }
}

export class CliContext {
  readonly deps: CliDeps;
  readonly fs: FileSystem;
  readonly options: GlobalOptions;
  /** The directory commands act for (`--cwd`, else the process cwd), absolute. */
  readonly cwd: string;
  readonly agentDir: string;
  readonly json: boolean;
  readonly quiet: boolean;
  /** Colours on stdout (TTY, no NO_COLOR, no --no-color). */
  readonly color: Colors;
  /** Colours on stderr. */
  readonly errColor: Colors;
  #settings: Promise<Record<string, unknown>> | undefined;
  #sessionDir: Promise<SessionDirChoice> | undefined;

  constructor(deps: CliDeps, options: GlobalOptions) {
    this.deps = deps;
    this.fs = deps.fs;
    this.options = options;
    const { storage } = deps;
    this.cwd = resolvePath(storage.processCwd, options.cwd ?? storage.processCwd);
    this.agentDir = resolvePath(storage.processCwd, resolveAgentDir(storage, options.agentDir));
    this.json = options.json ?? false;
    this.quiet = options.quiet ?? false;
    const allowed = options.color !== false && !storage.env("NO_COLOR");
    this.color = createColors(allowed && deps.stdoutIsTTY);
    this.errColor = createColors(allowed && deps.stderrIsTTY);
  }

  /** Terminal width for tables; unlimited in pipes. */
  get width(): number {
    // A terminal that reports 0 columns (`script` does) has an unknown width: take 80.
    return this.deps.stdoutIsTTY ? this.deps.columns || 80 : Infinity;
  }

  out(line: string): void {
    this.deps.stdout(line + "\n");
  }

  /**
   * Prints a value as pretty JSON on stdout; an object gets `"schemaVersion"` first, the
   * version of the shapes in docs/JSON.md (arrays stay arrays: see there).
   */
  outJson(value: unknown): void {
    const versioned = value !== null && typeof value === "object" && !Array.isArray(value) ? { schemaVersion: JSON_SCHEMA_VERSION, ...value } : value;
    this.outRawJson(versioned);
  }

  /** Prints a value as pretty JSON as it is, for shapes that are pi's own (`context`). */
  outRawJson(value: unknown): void {
    this.deps.stdout(JSON.stringify(value, null, 2) + "\n");
  }

  /** A note for people on stderr; silenced by `-q`. Control characters (from files) are made visible. */
  note(line: string): void {
    if (!this.quiet) this.deps.stderr(printable(line) + "\n");
  }

  /** A note that matters more (`note:` in yellow on a terminal); silenced by `-q` too. */
  notice(line: string): void {
    if (!this.quiet) this.deps.stderr(this.errColor.yellow("note: ") + printable(line) + "\n");
  }

  warn(line: string): void {
    this.deps.stderr(this.errColor.yellow("warning: ") + printable(line) + "\n");
  }

  /** Merged global and project settings; problems are reported once as warnings. */
  settings(): Promise<Record<string, unknown>> {
    this.#settings ??= (async () => {
      let merged: Record<string, unknown> = {};
      for (const path of [joinPath(this.agentDir, "settings.json"), joinPath(this.cwd, ".pi", "settings.json")]) {
        const text = await readText(this.fs, path);
        if (text === undefined) continue;
        const { settings, problems } = await parseSettings(text);
        for (const p of problems) this.warn(`Ignoring ${path}: line ${p.line}, column ${p.column}: ${p.message}`);
        merged = mergeSettings(merged, settings);
      }
      return merged;
    })();
    return this.#settings;
  }

  /**
   * A folder named by `--session-dir` or `--agent-dir` that is a file is a usage error; one that
   * does not exist gets a note, so that "no sessions" is not taken for an empty folder.
   */
  async #checkFlagDir(flag: "--agent-dir" | "--session-dir", given: string | undefined, dir: string): Promise<void> {
    if (given === undefined) return;
    const stat = await this.fs.stat(dir).catch(() => null);
    if (stat === null) this.notice(`${flag} ${dir} does not exist`);
    else if (!stat.isDirectory) {
      const want = flag === "--agent-dir" ? "pi's agent folder (the one holding sessions/ and settings.json)" : "the folder that holds the session files";
      throw new CliError("bad-option", `${flag} ${dir} is a file, not a folder`, `Pass ${want}`);
    }
  }

  /** The session directory for the effective cwd, by SPEC precedence. */
  sessionDir(): Promise<SessionDirChoice> {
    this.#sessionDir ??= (async () => {
      await this.#checkFlagDir("--agent-dir", this.options.agentDir, this.agentDir);
      const settings = this.options.sessionDir || this.deps.storage.env("PI_CODING_AGENT_SESSION_DIR") ? {} : await this.settings();
      const choice = resolveSessionDir(this.deps.storage, {
        cwd: this.cwd,
        agentDir: this.agentDir,
        flag: this.options.sessionDir,
        setting: settings.sessionDir,
      });
      const dir = resolvePath(this.deps.storage.processCwd, choice.dir);
      await this.#checkFlagDir("--session-dir", this.options.sessionDir, dir);
      return { ...choice, dir };
    })();
    return this.#sessionDir;
  }
}
