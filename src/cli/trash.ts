/**
 * Moving a file to the trash the way pi does (the `trash` program first), falling back to
 * the freedesktop.org home trash (`files/` + `info/*.trashinfo`). Never unlinks anything.
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";
import { baseName, joinPath, resolvePath } from "../core/storage/paths.ts";
import { type FileSystem, FsError, isFsError } from "../io/file-system.ts";
import { CliError } from "./errors.ts";
import type { ExecFn } from "./deps.ts";

/** What moving to the trash needs from the outside world. */
export interface TrashDeps {
  fs: FileSystem;
  storage: StorageEnv;
  /** Runs the `trash` program; absent means go straight to the freedesktop trash. */
  exec?: ExecFn;
  now: () => Date;
}

/** Where a file went: `trashPath` is known only for the freedesktop trash. */
export interface TrashResult {
  via: "trash-command" | "freedesktop";
  trashPath?: string;
}

const encoder = new TextEncoder();

/** The home trash: `$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`. */
export function homeTrashDir(storage: StorageEnv): string {
  const dataHome = storage.env("XDG_DATA_HOME");
  // The spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const base = dataHome && dataHome.startsWith("/") ? dataHome : joinPath(storage.home, ".local", "share");
  return joinPath(base, "Trash");
}

/** `YYYY-MM-DDThh:mm:ss` in local time, as the trash spec's DeletionDate wants. */
export function localTimestamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}` +
    `T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/**
 * The `.trashinfo` text for `absolutePath`; the path is percent-encoded like a URL path.
 *
 * @example
 * ```ts
 * trashInfo("/a b/s.jsonl", new Date(2026, 0, 2, 3, 4, 5));
 * // "[Trash Info]\nPath=/a%20b/s.jsonl\nDeletionDate=2026-01-02T03:04:05\n"
 * ```
 */
export function trashInfo(absolutePath: string, deletedAt: Date): string {
  const path = absolutePath.split("/").map(encodeURIComponent).join("/");
  return `[Trash Info]\nPath=${path}\nDeletionDate=${localTimestamp(deletedAt)}\n`;
}

function isCrossDevice(error: unknown): boolean {
  if (!isFsError(error, "Other")) return false;
  const cause = (error as FsError).cause as { code?: unknown } | undefined;
  return cause?.code === "EXDEV" || /EXDEV|cross-device/i.test(error.message);
}

/** Tries the `trash` program; true when it ran and the file is gone or it said so. */
async function viaTrashCommand(deps: TrashDeps, path: string): Promise<boolean> {
  if (!deps.exec) return false;
  const args = path.startsWith("-") ? ["--", path] : [path];
  const { code } = await deps.exec("trash", args);
  if (code === 0) return true;
  return code !== null && (await deps.fs.stat(path)) === null;
}

/**
 * Reserves a name in the trash by creating its `.trashinfo` exclusively (the spec's way to
 * avoid two deleters picking the same name): `NAME`, then `NAME.2`, `NAME.3`…
 */
async function reserveName(fs: FileSystem, trash: string, name: string, info: Uint8Array): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}.${n}`;
    if ((await fs.stat(joinPath(trash, "files", candidate))) !== null) continue;
    try {
      await fs.append(joinPath(trash, "info", `${candidate}.trashinfo`), info, { exclusive: true, mode: 0o600 });
      return candidate;
    } catch (error) {
      if (!isFsError(error, "AlreadyExists")) throw error;
    }
  }
}

/** Moves `path` into the freedesktop home trash and returns where it now is. */
export async function moveToHomeTrash(deps: TrashDeps, path: string): Promise<string> {
  const { fs } = deps;
  const absolute = resolvePath(deps.storage.processCwd, path);
  const trash = homeTrashDir(deps.storage);
  await fs.mkdir(joinPath(trash, "files"), { recursive: true });
  await fs.mkdir(joinPath(trash, "info"), { recursive: true });
  const info = encoder.encode(trashInfo(absolute, deps.now()));
  const name = await reserveName(fs, trash, baseName(absolute), info);
  const target = joinPath(trash, "files", name);
  try {
    await fs.rename(absolute, target);
  } catch (error) {
    await fs.remove(joinPath(trash, "info", `${name}.trashinfo`)).catch(() => undefined);
    if (isCrossDevice(error)) {
      throw new CliError(
        "trash-other-device",
        `Cannot move ${absolute} to the trash: it is on another device than ${trash}`,
        "Install the `trash` command (it knows per-device trash folders), or pass --permanent to delete it",
        1,
      );
    }
    throw error;
  }
  return target;
}

/**
 * Moves `path` to the trash: `trash PATH` (`trash -- PATH` for a path starting with `-`),
 * counted as done on exit 0 or when the file is gone; otherwise the freedesktop home trash.
 *
 * @example
 * ```ts
 * // const { via, trashPath } = await moveToTrash({ fs, storage, exec, now }, "/s/a.jsonl");
 * ```
 */
export async function moveToTrash(deps: TrashDeps, path: string): Promise<TrashResult> {
  if (await viaTrashCommand(deps, path)) return { via: "trash-command" };
  return { via: "freedesktop", trashPath: await moveToHomeTrash(deps, path) };
}
