/**
 * `files <path>`: the sessions and entries that read, edited, wrote, listed or searched a path
 * (or anything under it, for a directory), from tool calls, bash commands and the file lists
 * of compactions and branch summaries; relative paths resolved against each session's cwd.
 * @module
 */
import { filesDigest } from "../../core/digest/files-digest.ts";
import { listingDigest } from "../../core/digest/listing-digest.ts";
import { pathWithin, resolveToolPath } from "../../core/files/file-refs.ts";
import { expandHome, resolvePath, tildePath } from "../../core/storage/paths.ts";
import { recordState } from "../../catalog/store.ts";
import { sessionScope, withCatalog, withProgress } from "../../query/scope.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import { oneLine } from "../../render/control-chars.ts";
import { shortSessionIds } from "../../query/known-ids.ts";

/** One use of the path by an entry. */
interface FileHit {
  entryId: string | null;
  timestamp: string | null;
  op: string;
  tool: string;
  path: string;
  resolved: string;
  command?: string;
}

interface SessionHits {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  refs: FileHit[];
}

async function findHits(ctx: CliContext, target: string, all: boolean): Promise<{ sessions: SessionHits[]; short: Map<string, string> }> {
  const scope = await sessionScope(ctx, all);
  const home = ctx.deps.storage.home;
  const base = ctx.deps.storage.processCwd;
  const cwdFilter = scope.cwdFilter === undefined ? undefined : resolvePath(base, scope.cwdFilter);
  return withCatalog(ctx, async (catalog) => {
    const [options, done] = withProgress(ctx, "Reading sessions", { listedDirs: scope.dirs });
    const view = await catalog.refresh([filesDigest, listingDigest], scope.files, options).finally(done);
    const names = view.records(listingDigest);
    const found: SessionHits[] = [];
    for (const [path, record] of view.records(filesDigest)) {
      const { header, rejected, data } = recordState(record);
      if (rejected || header === null) continue;
      const cwd = typeof header.cwd === "string" ? header.cwd : "";
      if (cwdFilter !== undefined && (cwd === "" || resolvePath(base, cwd) !== cwdFilter)) continue;
      const refs: FileHit[] = [];
      for (const [entryId, timestamp, op, tool, paths, command] of data.refs) {
        for (const raw of paths) {
          const resolved = resolveToolPath(raw, cwd, home);
          if (!pathWithin(resolved, target)) continue;
          refs.push({ entryId, timestamp, op, tool, path: raw, resolved, ...(command === undefined ? {} : { command }) });
        }
      }
      if (refs.length === 0) continue;
      const listing = names.get(path);
      const name = listing ? recordState(listing).data.name ?? null : null;
      found.push({ path, id: typeof header.id === "string" ? header.id : String(header.id), cwd, name, refs });
    }
    const latest = (s: SessionHits) => s.refs.reduce((max, r) => (r.timestamp !== null && r.timestamp > max ? r.timestamp : max), "");
    found.sort((a, b) => (latest(a) < latest(b) ? 1 : latest(a) > latest(b) ? -1 : 0));
    // Printed ids are unique among every project's sessions, so each resolves back to its own.
    return { sessions: found, short: await shortSessionIds(ctx, catalog, ctx.json ? [] : found.map((s) => s.id)) };
  });
}

/** `pi-session files <path>`. */
export const filesCommand: CommandSpec = {
  name: "files",
  summary: "Show which sessions and entries read, edited or wrote a file (or anything in a directory)",
  args: ["<path>"],
  options: [{ flags: "-a, --all", description: "search every project (default: the sessions of this directory)" }],
  examples: ["pi-session files src/parser.ts", "pi-session files ~/work/app/src --all", "pi-session files package.json --json | jq '.[].path'"],
  async run(ctx, [path], opts) {
    if (path.trim() === "") throw new CliError("bad-usage", "files needs a path, not an empty argument", "Pass a file or folder, e.g. pi-session files src/parser.ts");
    const home = ctx.deps.storage.home;
    const target = resolvePath(ctx.cwd, expandHome(path, home));
    const { sessions, short } = await findHits(ctx, target, Boolean(opts.all));
    if (ctx.json) {
      ctx.outJson(sessions);
      return sessions.length ? 0 : 1;
    }
    if (sessions.length === 0) {
      ctx.note(`No session touched ${tildePath(target, home)}${opts.all ? "" : "; try --all"}`);
      return 1;
    }
    const c = ctx.color;
    for (const [i, s] of sessions.entries()) {
      if (i > 0) ctx.out("");
      ctx.out(`${c.cyan(short.get(s.id)!)}  ${c.bold(oneLine(s.name ?? tildePath(s.cwd, home)))}  ${c.dim(tildePath(s.path, home))}`);
      for (const r of s.refs) {
        const what = oneLine(r.command ?? r.path);
        ctx.out(`  ${c.dim(r.timestamp ?? "?")}  ${r.entryId ?? "-"}  ${r.op.padEnd(8)} ${what}`);
      }
    }
    return 0;
  },
};
