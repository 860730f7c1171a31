/**
 * Our ANSI styles against picocolors (a devDependency here, the library they replace): the
 * same bytes for plain, nested and repeated styles, and nothing at all when colours are off.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import pc from "picocolors";
import { type Colors, createColors } from "../../src/render/colors.ts";

const STYLES = ["bold", "dim", "italic", "underline", "inverse", "red", "green", "yellow", "blue", "magenta", "cyan", "gray"] as const;

function texts(ours: Colors): string[] {
  return ["", "plain", "ünïcödé 日本", "a\nb", `x ${ours.red("red")} y`, `${ours.bold("b")}${ours.dim("d")}`, `${ours.cyan("c")} and ${ours.cyan("c again")}`, ours.bold(ours.dim("both"))];
}

test("each style gives picocolors' bytes, nested styles included", () => {
  const ours = createColors(true);
  const theirs = pc.createColors(true);
  for (const name of STYLES) {
    for (const text of texts(ours)) {
      assert.equal(ours[name](text), theirs[name](text), `${name}(${JSON.stringify(text)})`);
    }
  }
});

test("a style goes on after a nested style of the same end code ends", () => {
  const c = createColors(true);
  assert.equal(c.bold(`a ${c.dim("b")} c`), "\x1b[1ma \x1b[2mb\x1b[22m\x1b[1m c\x1b[22m");
  assert.equal(c.red(`a ${c.green("b")} c`), "\x1b[31ma \x1b[32mb\x1b[31m c\x1b[39m");
});

test("with colours off every style returns the text unchanged", () => {
  const c = createColors(false);
  assert.equal(c.isColorSupported, false);
  for (const name of STYLES) assert.equal(c[name]("te\x1b[39mxt"), "te\x1b[39mxt");
  assert.equal(c.bold(42), "42");
});
