/**
 * Turns native file-system errors (Node and Bun errno codes, Deno error classes) into
 * `FsError`, and builds the messages every adapter uses, so all four speak alike.
 * @module
 */

import { FsError, type FsErrorKind } from "./file-system.ts";

const KIND_BY_CODE = new Map<string, FsErrorKind>([
  ["ENOENT", "NotFound"],
  ["EEXIST", "AlreadyExists"],
  ["EACCES", "PermissionDenied"],
  ["EPERM", "PermissionDenied"],
  ["EISDIR", "IsDirectory"],
  ["ENOTDIR", "NotDirectory"],
  ["ENOTEMPTY", "NotEmpty"],
]);

// Deno's error classes; Deno 2 also sets `code`, but the class name is its documented API.
const KIND_BY_NAME = new Map<string, FsErrorKind>([
  ["NotFound", "NotFound"],
  ["AlreadyExists", "AlreadyExists"],
  ["PermissionDenied", "PermissionDenied"],
  ["NotCapable", "PermissionDenied"],
  ["IsADirectory", "IsDirectory"],
  ["NotADirectory", "NotDirectory"],
]);

const DESCRIPTION: Record<Exclude<FsErrorKind, "Other">, string> = {
  NotFound: "no such file or directory",
  AlreadyExists: "it already exists",
  PermissionDenied: "permission denied",
  IsDirectory: "it is a directory",
  NotDirectory: "not a directory",
  NotEmpty: "the directory is not empty",
};

/**
 * Plain words for the errno codes of "Other" failures a user can meet; the runtimes' own messages
 * differ and repeat the path.
 */
const DETAIL_BY_CODE = new Map<string, string>([
  ["ELOOP", "too many symbolic links (a link loop?)"],
  ["ENAMETOOLONG", "the name is too long"],
  ["ENOSPC", "no space left on the device"],
  ["EROFS", "the file system is read-only"],
  ["EMFILE", "too many open files"],
  ["EIO", "input/output error"],
  ["EBUSY", "the file is busy"],
  ["EXDEV", "it is on another device"],
]);

/** What failed: the verb, the path, and for `rename` the destination. */
export interface FsOperation {
  verb: string;
  path: string;
  to?: string;
}

/**
 * An `FsError` in the shared message style, e.g.
 * `Cannot read "/a/b": no such file or directory` or `Cannot rename "/a" to "/b": …`.
 * `detail` replaces the standard description (used for "Other").
 */
export function fsError(kind: FsErrorKind, op: FsOperation, detail?: string, cause?: unknown): FsError {
  const why = detail ?? (kind === "Other" ? "unexpected error" : DESCRIPTION[kind]);
  const to = op.to === undefined ? "" : ` to "${op.to}"`;
  return new FsError(kind, op.path, `Cannot ${op.verb} "${op.path}"${to}: ${why}`, { cause });
}

/** Maps whatever a native call threw onto an `FsError`; an `FsError` passes through. */
export function mapError(error: unknown, op: FsOperation): FsError {
  if (error instanceof FsError) return error;
  const native = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = typeof native?.code === "string" ? native.code : "";
  const name = typeof native?.name === "string" ? native.name : "";
  const kind = KIND_BY_CODE.get(code) ?? KIND_BY_NAME.get(name) ?? "Other";
  const detail = kind === "Other" ? DETAIL_BY_CODE.get(code) ?? String(native?.message ?? error) : undefined;
  return fsError(kind, op, detail, error);
}

/** Runs `action`, rethrowing any failure as an `FsError`. */
export async function mapped<T>(op: FsOperation, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw mapError(error, op);
  }
}

/** `stat` semantics shared by the adapters: nothing there (or a file on the way) is `null`. */
export function isAbsent(error: FsError): boolean {
  return error.kind === "NotFound" || error.kind === "NotDirectory";
}

/**
 * The error of a `writeAtomic` whose target is a device, a pipe or a socket: a rename would put a
 * plain file in its place (as root, over /dev/null), so such a name is never replaced.
 */
export function notReplaceable(path: string): FsError {
  return fsError("Other", { verb: "replace", path }, "it is a device, a pipe or a socket, not a regular file; write into it instead");
}

/** What `lstat` tells of a name, in the shape every runtime can give. */
export interface NameKind {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** True for a name that is neither a file, a folder nor a link: a device, a pipe or a socket. */
export function isSpecial(kind: NameKind): boolean {
  return !kind.isFile && !kind.isDirectory && !kind.isSymlink;
}
