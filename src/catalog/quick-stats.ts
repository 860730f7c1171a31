/**
 * The stats of a refresh under the quick check (see folder-check.ts): files taken on trust get
 * their stored size and mtime, the others are stat'ed.
 * @module
 */
import type { FileStat } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { STAT_CONCURRENCY } from "./refresh-run.ts";
import type { CatalogRecord, RecordStamp } from "./store.ts";

/**
 * The quick check's stats: a file whose stored records (one per section, all alike) pass `trust`
 * gets its records' size and mtime without a stat; the others are stat'ed.
 */
export async function quickStats(
  paths: readonly string[],
  stored: readonly Map<string, CatalogRecord>[],
  trust: (path: string, stamp: RecordStamp) => boolean,
  statOf: (path: string) => Promise<FileStat | null>,
): Promise<(FileStat | null)[]> {
  const stats = new Array<FileStat | null>(paths.length).fill(null);
  const todo: number[] = [];
  for (const [i, path] of paths.entries()) {
    const first = stored[0].get(path);
    const alike = first !== undefined && stored.every((records) => {
      const r = records.get(path);
      return r !== undefined && r.size === first.size && r.mtimeMs === first.mtimeMs;
    });
    if (alike && trust(path, first)) stats[i] = { size: first.size, mtimeMs: first.mtimeMs, isFile: true, isDirectory: false, mode: 0 };
    else todo.push(i);
  }
  const found = await mapConcurrent(todo, STAT_CONCURRENCY, (i) => statOf(paths[i]));
  todo.forEach((i, k) => (stats[i] = found[k]));
  return stats;
}
