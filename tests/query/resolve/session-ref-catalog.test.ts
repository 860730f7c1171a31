/**
 * `resolveSessionRef` through the catalog's stored header ids: the same answers as reading every
 * header (catalog off), ambiguity errors included; sessions made or changed after the catalog was
 * saved are seen. On the memory file system (the file store) and on a real disk (the runtime's
 * store: SQLite where it has one).
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { FileSystem } from "../../../src/io/file-system.ts";
import { detectFileSystem } from "../../../src/io/mod.ts";
import { createQueryEnv, type QueryEnv } from "../../../src/query/env.ts";
import { QueryError } from "../../../src/query/errors.ts";
import { resolveSessionRef } from "../../../src/query/resolve/session-ref.ts";
import { cataloguedSessions } from "../../../src/query/scope.ts";
import { wrap } from "../../cli/_fs-wrappers.ts";
import { defaultSessionDir } from "../../../src/core/storage/layout.ts";
import { header, jsonl, memoryFs, NOW, userEntry, writeText } from "../../cli/_harness.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-ref-catalog-"));
after(() => rmSync(work, { recursive: true, force: true }));

const PROJECTS = ["/work/alpha", "/work/beta", "/work/gamma"];
/** Ids sharing prefixes within and across projects; one session is copied into two projects. */
const IDS = ["aaaa1111-0001", "aaaa1111-0002", "aaaa2222-0001", "abcd0000-0001", "b0000000-0001", "b0000000-0002", "c0ffee00-0001"];

interface Place {
  name: string;
  fs: FileSystem;
  home: string;
  processCwd: string;
  cache: string;
  /** The memory file system's clock (its mtimes never move): the env's too, as the CLI harness has it. */
  now?: () => Date;
}

function places(): Place[] {
  const disk = mkdtempSync(join(work, "disk-"));
  return [
    { name: "memory", fs: memoryFs(), home: "/home/u", processCwd: "/work/alpha", cache: "/home/u/.cache", now: () => NOW },
    { name: "disk", fs: detectFileSystem(), home: disk, processCwd: "/work/alpha", cache: join(disk, "cache") },
  ];
}

function agentDir(place: Place): string {
  return `${place.home}/.pi/agent`;
}

function folder(place: Place, cwd: string): string {
  return defaultSessionDir(cwd, agentDir(place), place.processCwd);
}

function envOf(place: Place, fs: FileSystem, catalog: "auto" | "off", cwd = PROJECTS[0]): QueryEnv {
  const vars: Record<string, string> = { XDG_CACHE_HOME: place.cache, PI_SESSION_CATALOG: catalog };
  return createQueryEnv({ fs, storage: { env: (name) => vars[name], home: place.home, processCwd: place.processCwd }, agentDir: agentDir(place), cwd, now: place.now });
}

async function session(place: Place, cwd: string, id: string, name = id, text = "hello"): Promise<string> {
  const path = `${folder(place, cwd)}/2025-06-01T10-00-00-000Z_${name}.jsonl`;
  await writeText(place.fs, path, jsonl(header(id, cwd), userEntry("u1", null, text)));
  return path;
}

async function corpus(place: Place): Promise<void> {
  for (const [i, id] of IDS.entries()) await session(place, PROJECTS[i % 3], id);
  // A copy of one session in another project, a file that is not a session, one without a usable header.
  await session(place, PROJECTS[2], IDS[0], `copy-${IDS[0]}`);
  await writeText(place.fs, `${folder(place, PROJECTS[1])}/2025-06-01T10-00-00-000Z_notes.jsonl`, jsonl({ type: "message", id: "x" }));
  await writeText(place.fs, `${folder(place, PROJECTS[1])}/2025-06-01T10-00-00-000Z_bad.jsonl`, jsonl({ type: "session", id: 42, cwd: "/work/beta" }));
}

/** The path, or the error's code and message. */
async function answer(env: QueryEnv, ref: string): Promise<string> {
  try {
    return await resolveSessionRef(env, ref);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return `${error.code} ${error.exitCode}: ${error.message}`;
  }
}

/** `fs`, counting the reads of session files (not the catalog's). */
function counting(fs: FileSystem, place: Place): { fs: FileSystem; reads: Set<string> } {
  const reads = new Set<string>();
  const sessions = `${agentDir(place)}/sessions/`;
  return {
    reads,
    fs: wrap(fs, {
      read: (path, range) => {
        if (path.startsWith(sessions)) reads.add(path);
        return fs.read(path, range);
      },
    }),
  };
}

const REFS = [...IDS, ...IDS.flatMap((id) => [1, 2, 4, 5, 9].map((n) => id.slice(0, n))), "aaaa9999", "zzz", "0", "aaaa1111-0003"];

for (const place of places()) {
  test(`resolveSessionRef() gives the same answers with the catalog on and off, ambiguity errors included (${place.name})`, async () => {
    await corpus(place);
    await cataloguedSessions(envOf(place, place.fs, "auto"), true);
    for (const cwd of PROJECTS) {
      for (const ref of REFS) {
        const off = await answer(envOf(place, place.fs, "off", cwd), ref);
        assert.equal(await answer(envOf(place, place.fs, "auto", cwd), ref), off, `${ref} from ${cwd}`);
      }
    }
    const ambiguous = await answer(envOf(place, place.fs, "auto"), "aaaa");
    assert.match(ambiguous, /^ambiguous-session 2: Session reference "aaaa" matches 3 sessions:\n {2}aaaa1111-0001 /);
  });

  test(`resolveSessionRef() with a current catalog reads only the headers of the sessions the reference may name (${place.name})`, async () => {
    const { fs, reads } = counting(place.fs, place);
    await cataloguedSessions(envOf(place, fs, "auto"), true);
    reads.clear();
    const path = await resolveSessionRef(envOf(place, fs, "auto"), IDS[3]);
    assert.match(path, new RegExp(`_${IDS[3]}\\.jsonl$`));
    // The match, and the two files without a usable header id (the catalog cannot rule them out).
    assert.deepEqual([...reads].map((p) => p.slice(p.lastIndexOf("_") + 1)).sort(), ["abcd0000-0001.jsonl", "bad.jsonl", "notes.jsonl"]);
    reads.clear();
    await resolveSessionRef(envOf(place, fs, "off"), IDS[3]);
    assert.equal(reads.size, IDS.length + 3);
  });

  test(`resolveSessionRef() of a reference that matches nothing reads no more headers than the catalog cannot vouch for (${place.name})`, async () => {
    const { fs, reads } = counting(place.fs, place);
    await cataloguedSessions(envOf(place, fs, "auto"), true);
    reads.clear();
    assert.equal(await answer(envOf(place, fs, "auto"), "ffff0000"), 'no-session 2: No session found matching "ffff0000"');
    // Looked for twice (the quick check, then a full one), never by reading every header.
    assert.deepEqual([...reads].map((p) => p.slice(p.lastIndexOf("_") + 1)).sort(), ["bad.jsonl", "notes.jsonl"]);
    reads.clear();
    assert.equal(await answer(envOf(place, fs, "off"), "ffff0000"), 'no-session 2: No session found matching "ffff0000"');
    assert.equal(reads.size, IDS.length + 3);
  });

  test(`resolveSessionRef() finds a session made after the catalog was saved, in a known and in a new project (${place.name})`, async () => {
    await cataloguedSessions(envOf(place, place.fs, "auto"), true);
    const known = await session(place, PROJECTS[1], "dddd0000-0001");
    const fresh = await session(place, "/work/delta", "dddd0000-0002");
    assert.equal(await resolveSessionRef(envOf(place, place.fs, "auto"), "dddd0000-0001"), known);
    assert.equal(await resolveSessionRef(envOf(place, place.fs, "auto"), "dddd0000-0002"), fresh);
    assert.equal(await answer(envOf(place, place.fs, "auto"), "dddd"), await answer(envOf(place, place.fs, "off"), "dddd"));
  });

  test(`resolveSessionRef() sees a header changed after the catalog was saved (${place.name})`, async () => {
    await cataloguedSessions(envOf(place, place.fs, "auto"), true);
    const path = `${folder(place, PROJECTS[0])}/2025-06-01T10-00-00-000Z_${IDS[6]}.jsonl`;
    await session(place, PROJECTS[0], "eeee0000-0001-changed", IDS[6], "hello again");
    assert.equal(await resolveSessionRef(envOf(place, place.fs, "auto"), "eeee0000"), path);
    assert.equal(await answer(envOf(place, place.fs, "auto"), IDS[6]), `no-session 2: No session found matching "${IDS[6]}"`);
  });
}

test("resolveSessionRef() finds a session the catalog's quick check took as it was (an old file rewritten in place) by a full check", async () => {
  // The memory file system's mtimes stay at NOW, long before the env's clock: every session is
  // old and no folder's mtime moves, so the quick check takes the stored header ids on trust.
  const place = { ...places()[0], now: undefined };
  await corpus(place);
  const catalogued = () => envOf(place, place.fs, "auto");
  await cataloguedSessions(catalogued(), true);
  await cataloguedSessions(catalogued(), true);
  const path = `${folder(place, PROJECTS[0])}/2025-06-01T10-00-00-000Z_${IDS[6]}.jsonl`;
  await session(place, PROJECTS[0], "eeee0000-0001-changed", IDS[6], "hello again");
  assert.equal(await resolveSessionRef(catalogued(), "eeee0000"), path);
  assert.equal(await answer(catalogued(), IDS[6]), `no-session 2: No session found matching "${IDS[6]}"`);
});
