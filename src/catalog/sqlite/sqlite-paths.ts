/**
 * Paths in the catalog's SQL.
 * @module
 */

/**
 * SQL for the folder the file at `path` (an SQL expression) is directly in, with no separator at
 * its end: everything up to its last `/` (SQLite's `rtrim` by every other character of the path).
 */
export function sqlFolderOf(path: string): string {
  return `substr(${path}, 1, length(rtrim(${path}, replace(${path}, '/', ''))) - 1)`;
}
