/**
 * `mcp --install`, `--uninstall`: the `pi-session` entry in pi's global `mcp.json` (in the agent
 * dir) or a project's `.pi/mcp.json`, edited in place (mcp-json.ts), written atomically after a
 * backup of the old file. A file that cannot be parsed is reported and left alone.
 * @module
 */
import { readBytes } from "../io/read-bytes.ts";
import { dirName, joinPath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { QueryError } from "../query/errors.ts";
import { McpJsonProblem, type McpJsonEdit, removeServerEntry, type ServerEntry, setServerEntry } from "./mcp-json.ts";

/** pi's mcp.json: `<agentDir>/mcp.json`, or `<project>/.pi/mcp.json`. */
export function mcpJsonPath(where: { agentDir: string; project?: string }): string {
  return where.project === undefined ? joinPath(where.agentDir, "mcp.json") : joinPath(where.project, ".pi", "mcp.json");
}

export interface InstallOutcome extends McpJsonEdit {
  path: string;
  /** Where the old file was copied, when there was one and it changed. */
  backup?: string;
}

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  if ((await fs.stat(path)) === null) return undefined;
  return new TextDecoder().decode(await readBytes(fs, path));
}

async function freeBackupPath(fs: FileSystem, path: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${path}.bak` : `${path}.bak.${n}`;
    if ((await fs.stat(candidate)) === null) return candidate;
  }
}

/**
 * Adds or updates (`entry`) or removes (`entry` undefined) the pi-session server in the mcp.json
 * at `path`. A missing file is created on install (with its folder) and left missing on uninstall.
 */
export async function editMcpJson(fs: FileSystem, path: string, entry: ServerEntry | undefined): Promise<InstallOutcome> {
  const before = await readText(fs, path);
  let edit: McpJsonEdit;
  try {
    edit = entry ? setServerEntry(before ?? "", entry) : removeServerEntry(before ?? "");
  } catch (error) {
    if (!(error instanceof McpJsonProblem)) throw error;
    throw new QueryError("bad-mcp-json", `Cannot edit ${path}: ${error.message}`, "Fix the file by hand (it was left as it is), then run this again", 3);
  }
  if (edit.text === undefined) return { ...edit, path };
  let backup: string | undefined;
  if (before !== undefined) {
    backup = await freeBackupPath(fs, path);
    await fs.writeAtomic(backup, new TextEncoder().encode(before));
  } else {
    await fs.mkdir(dirName(path), { recursive: true });
  }
  await fs.writeAtomic(path, new TextEncoder().encode(edit.text));
  return { ...edit, path, ...(backup ? { backup } : {}) };
}
