/**
 * Tests for the pure half of `move`: which cwds follow a renamed folder, which session folders
 * are worth reading, where each file goes, and header bytes changed in one field only.
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { candidateFolders, mapCwd, planMoves, rewriteHeader } from "../../../src/core/move/mod.ts";
import { encodeCwd } from "../../../src/core/storage/layout.ts";

const folderFor = (cwd: string) => `/agent/sessions/${encodeCwd(cwd)}`;

describe("move planning", () => {
  it("mapCwd() renames the folder itself and, unless exact, its subfolders only", () => {
    const rows: [string, boolean, string | null][] = [
      ["/w/app", false, "/w/app2"],
      ["/w/app/", false, "/w/app2"],
      ["/w/app/web/src", false, "/w/app2/web/src"],
      ["/w/app/web", true, null],
      ["/w/apple", false, null],
      ["/w", false, null],
      ["/w/app/../app", false, "/w/app2"],
    ];
    for (const [cwd, exact, want] of rows) assert.equal(mapCwd(cwd, "/w/app", "/w/app2", exact), want, cwd);
  });

  it("candidateFolders() narrows to the folders the old or new paths (and their subfolders) encode to", () => {
    const names = ["--w-app--", "--w-app-web--", "--w-apple--", "--w-app2--", "--w-app2-x--", "--other--"];
    assert.deepEqual(candidateFolders(names, "/w/app", "/w/app2", false), ["--w-app--", "--w-app-web--", "--w-app2--", "--w-app2-x--"]);
    assert.deepEqual(candidateFolders(names, "/w/app", "/w/app2", true), ["--w-app--", "--w-app2--"]);
  });

  it("planMoves() sends each session to pi's folder for its new cwd, and skips cwds outside the folder", () => {
    const moves = planMoves(
      [
        { path: "/agent/sessions/--w-a-b--/2.jsonl", cwd: "/w/a-b" }, // shares the folder name, not the project
        { path: "/agent/sessions/--w-a-b--/1.jsonl", cwd: "/w/a/b" },
        { path: "/agent/sessions/--w-a-b-c--/3.jsonl", cwd: "/w/a/b/c" },
      ],
      { from: "/w/a/b", to: "/w/z", exact: false, folderFor },
    );
    assert.deepEqual(moves, [
      { from: "/agent/sessions/--w-a-b--/1.jsonl", to: "/agent/sessions/--w-z--/1.jsonl", oldCwd: "/w/a/b", newCwd: "/w/z" },
      { from: "/agent/sessions/--w-a-b-c--/3.jsonl", to: "/agent/sessions/--w-z-c--/3.jsonl", oldCwd: "/w/a/b/c", newCwd: "/w/z/c" },
    ]);
  });

  it("planMoves() points a fork at its parent's new path when the parent moves too", () => {
    const parent = "/agent/sessions/--w-a--/p.jsonl";
    const moves = planMoves(
      [{ path: parent, cwd: "/w/a" }, { path: "/agent/sessions/--w-a--/f.jsonl", cwd: "/w/a", parentSession: parent }, { path: "/agent/sessions/--w-a--/g.jsonl", cwd: "/w/a", parentSession: "/elsewhere.jsonl" }],
      { from: "/w/a", to: "/w/b", exact: false, folderFor },
    );
    assert.equal(moves.find((m) => m.from.endsWith("f.jsonl"))?.parentSession, "/agent/sessions/--w-b--/p.jsonl");
    assert.equal(moves.find((m) => m.from.endsWith("g.jsonl"))?.parentSession, undefined);
  });

  it("planMoves() in a flat custom session dir keeps each file where it is", () => {
    const moves = planMoves([{ path: "/flat/1.jsonl", cwd: "/w/a" }], { from: "/w/a", to: "/w/b", exact: false, folderFor: null });
    assert.deepEqual(moves, [{ from: "/flat/1.jsonl", to: "/flat/1.jsonl", oldCwd: "/w/a", newCwd: "/w/b" }]);
  });

  it("rewriteHeader() changes the header's cwd and nothing else, byte for byte", () => {
    const head = `{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w/a","meta":{"cwd":"keep"}}`;
    const rest = `\n{"type":"x","cwd":"/w/a","bad\u00ff"}\n`;
    const out = rewriteHeader(new TextEncoder().encode(head + rest), { cwd: "/w/\"b\"" });
    assert.equal(new TextDecoder().decode(out!), head.replace(`"cwd":"/w/a"`, `"cwd":"/w/\\"b\\""`) + rest);
    const forked = `{"type":"session","id":"s","cwd":"/w/a","parentSession":"/old/p.jsonl"}\n`;
    const both = rewriteHeader(new TextEncoder().encode(forked), { cwd: "/w/b", parentSession: "/new/p.jsonl" });
    assert.equal(new TextDecoder().decode(both!), `{"type":"session","id":"s","cwd":"/w/b","parentSession":"/new/p.jsonl"}\n`);
    assert.equal(rewriteHeader(new TextEncoder().encode(`{"type":"session","id":"s"}\n`), { cwd: "/w/b" }), null);
    assert.equal(rewriteHeader(new TextEncoder().encode(`{"type":"session","cwd":"/w/a","id":\n`), { cwd: "/w/b" }), null);
  });
});
