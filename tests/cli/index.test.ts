/**
 * `index` and the catalog as every command meets it: counts, rebuild, stats, the `off`
 * switch, a corrupt cache noted once, progress only on a terminal, and `info`'s inherited usage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { run } from "../../src/cli/run.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { HOME, harnessDeps, memoryFs, readOnlyFs, runCli, writeText } from "./_harness.ts";
import { usageSessions } from "./_usage-sessions.ts";

async function setup() {
  const fs = memoryFs();
  const paths = await usageSessions(fs);
  return { fs, paths };
}

test("index reads every session once, then nothing; --rebuild reads them all again", async () => {
  const { fs } = await setup();
  const counts = async (...argv: string[]) => JSON.parse((await runCli(["index", "--json", ...argv], { fs })).stdout).counts;
  const first = await counts();
  assert.deepEqual({ ...first, bytesRead: 0 }, { files: 3, unchanged: 0, touched: 0, appended: 0, read: 3, removed: 0, bytesRead: 0, unreadable: 0 });
  assert.equal((await counts()).unchanged, 3);
  const page = `${HOME}/.cache/pi-session/pick-first-page-0123abcd.json`;
  await writeText(fs, page, "{}");
  const rebuilt = await counts("--rebuild");
  assert.equal(rebuilt.read, 3);
  assert.equal(await fs.stat(page), null, "the picker's kept first pages go too");
  assert.equal(rebuilt.bytesRead, first.bytesRead);
  const text = await runCli(["index", "--stats"], { fs });
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^Indexed 3 session files: 0 read, 0 appended, 0 touched, 3 unchanged, 0 removed \(0\.0 MB read\)\nCatalog: file at ~\/\.cache\/pi-session\nSize: /);
  assert.match(text.stdout, new RegExp(`\n {2}usage \\(v${usageDigest.version}\\): 3 files\n`));
});

test("index with XDG_CACHE_HOME and with PI_SESSION_CATALOG=off", async () => {
  const { fs } = await setup();
  const xdg = JSON.parse((await runCli(["index", "--json"], { fs, env: { XDG_CACHE_HOME: "/var/cache/me" } })).stdout);
  assert.equal(xdg.store.location, "/var/cache/me/pi-session");
  const off = await runCli(["index"], { fs, env: { PI_SESSION_CATALOG: "off" } });
  assert.match(off.stdout, /Catalog: off \(PI_SESSION_CATALOG=off\); nothing is kept/);
  assert.equal(await fs.stat(`${HOME}/.cache/pi-session`), null);
});

test("a corrupt cache gives the same listing: a broken record counts as missing, a broken file gets one note on stderr", async () => {
  const { fs } = await setup();
  const good = await runCli(["list", "--all", "--json"], { fs });
  const listing = `${HOME}/.cache/pi-session/listing-v${listingDigest.version}.jsonl`;
  await writeText(fs, listing, `{"catalog":"pi-session","format":1,"section":"listing","version":${listingDigest.version}}\n{"broken`);
  const torn = await runCli(["list", "--all", "--json"], { fs });
  assert.equal(torn.code, 0);
  assert.equal(torn.stdout, good.stdout);
  assert.equal(torn.stderr, "");
  await writeText(fs, listing, '{"broken\n');
  const bad = await runCli(["list", "--all", "--json"], { fs });
  assert.equal(bad.code, 0);
  assert.equal(bad.stdout, good.stdout);
  assert.equal(bad.stderr.split("\n").filter(Boolean).length, 1);
  assert.match(bad.stderr, /^pi-session: The catalog at \/home\/u\/\.cache\/pi-session cannot be read \(.*the first line is not the catalog's format line\); reading the session files directly\n$/);
  const healed = await runCli(["list", "--all", "--json"], { fs });
  assert.equal(healed.stderr, "");
});

test("index exits 3 with the reason when it cannot write the catalog, and does not say it indexed", async () => {
  const { fs } = await setup();
  const cache = `${HOME}/.cache/pi-session`;
  // A cache folder that cannot be written (as a read-only disk or another user's folder).
  const locked = readOnlyFs(fs, [cache]);
  for (const argv of [["index"], ["index", "--json"], ["index", "--rebuild"]]) {
    const run = await runCli(argv, { fs: locked });
    assert.equal(run.code, 3, `${argv.join(" ")}: ${run.stderr}`);
    assert.doesNotMatch(run.stdout, /Indexed/);
    assert.match(run.stderr, /Cannot write the catalog at \/home\/u\/\.cache\/pi-session: .*permission denied/);
    assert.doesNotMatch(run.stderr, /results are complete/, "said once, as the error");
    assert.doesNotMatch(run.stderr, /internal error/);
  }
  // Once it can write, it indexes (exit 0); a rebuild it cannot clear is refused the same way.
  assert.equal((await runCli(["index"], { fs })).code, 0);
  const rebuild = await runCli(["index", "--rebuild"], { fs: locked });
  assert.equal(rebuild.code, 3, rebuild.stderr);
  assert.match(rebuild.stderr, /Cannot write the catalog at .*permission denied/);
  // Other commands still answer from the files, with a note.
  const list = await runCli(["list"], { fs: locked });
  assert.equal(list.code, 0);
});

test("progress shows on a terminal once a scan takes over half a second, and is wiped", async () => {
  const { fs } = await setup();
  const out = { stdout: "", stderr: "" };
  let ms = 0;
  const deps = { ...harnessDeps({ fs, stderrIsTTY: true }, out), now: () => new Date((ms += 400)) };
  assert.equal(await run(["list", "--all"], deps), 0);
  assert.match(out.stderr, /\r\x1b\[KReading sessions \d\/3/);
  assert.ok(out.stderr.endsWith("\r\x1b[K"));
  const quiet = await runCli(["list", "--all"], { fs });
  assert.equal(quiet.stderr, "");
});

test("info shows how much of a fork's usage it inherited from its parent", async () => {
  const { fs, paths } = await setup();
  const json = JSON.parse((await runCli(["info", paths.fork, "--json"], { fs })).stdout);
  assert.equal(json.usage.input, 500);
  assert.deepEqual(json.inheritedUsage, {
    parentSession: paths.parent,
    usage: { input: 100, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 101, cost: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, total: 1 } },
  });
  assert.equal(JSON.parse((await runCli(["info", paths.parent, "--json"], { fs })).stdout).inheritedUsage, null);
  const text = (await runCli(["info", paths.fork], { fs })).stdout;
  assert.match(text, /\n {2}Inherited from the parent: \$1\.000 \(101 tokens\); this session's own: \$4\.000\n/);
  await fs.remove(paths.parent);
  const orphan = await runCli(["info", paths.fork, "--json"], { fs });
  assert.deepEqual(JSON.parse(orphan.stdout).inheritedUsage, { parentSession: paths.parent, usage: null });
});
