/**
 * The core purity check: the real `src/core` passes, and fixtures show it catches runtime
 * APIs while ignoring comments, strings, templates and regex literals.
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { checkCorePurity, findPurityProblems, formatProblem } from "../../scripts/core-purity.ts";

const FILE = "src/core/read/example.ts";
const lines = (source: string) => findPurityProblems(FILE, source).map((p) => `${p.line}: ${p.message}`);

describe("core purity", () => {
  it("checkCorePurity() finds nothing runtime-specific in src/core", async () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const { files, problems } = await checkCorePurity(root);
    assert.ok(files > 0, "no files under src/core");
    assert.deepEqual(problems.map(formatProblem), []);
  });

  it("findPurityProblems() reports process.env", () => {
    assert.deepEqual(findPurityProblems(FILE, "export const home = process.env.HOME;\n"), [
      { file: FILE, line: 1, message: "uses process, which core must not touch" },
    ]);
  });

  it("findPurityProblems() reports runtime globals however they are reached", () => {
    const source = [
      "const a = Deno.readTextFileSync('x');",
      "const b = Bun.file('x');",
      "const c: Buffer = Buffer.from('x');",
      "const d = globalThis.process?.argv;",
      "const e = process['env'];",
    ].join("\n");
    assert.deepEqual(lines(source), [
      "1: uses Deno, which core must not touch",
      "2: uses Bun, which core must not touch",
      "3: uses Buffer, which core must not touch",
      "3: uses Buffer, which core must not touch",
      "4: uses process, which core must not touch",
      "5: uses process, which core must not touch",
    ]);
  });

  it("findPurityProblems() reports runtime and impure imports", () => {
    const source = [
      'import { readFile } from "node:fs/promises";',
      'import { Database } from "bun:sqlite";',
      'import { $ } from "bun";',
      'export * from "npm:left-pad@1.3.0";',
      'import path from "path";',
      'const io = await import("../../io/node.ts");',
      'import {',
      '  x,',
      '} from "../../session/manager.ts";',
    ].join("\n");
    assert.deepEqual(lines(source), [
      '1: imports "node:fs/promises", a Node built-in',
      '2: imports "bun:sqlite", a Bun built-in',
      '3: imports "bun", a Bun built-in',
      '4: imports "npm:left-pad@1.3.0", which is not a known pure package',
      '5: imports "path", which is not a known pure package',
      '6: imports "../../io/node.ts" from outside src/core',
      '9: imports "../../session/manager.ts" from outside src/core',
    ]);
  });

  it("findPurityProblems() accepts core-relative imports, pure packages and type-only imports", () => {
    const source = [
      'import { parse } from "jsonc-parser";',
      'import { parse as p2 } from "npm:jsonc-parser@3.3.1";',
      'import type { FileSystem } from "../../io/file-system.ts";',
      'export type { FileStat } from "../../io/file-system.ts";',
      'import { CURRENT_SESSION_VERSION } from "../format/types.ts";',
      'export { readSession } from "./read-session.ts";',
    ].join("\n");
    assert.deepEqual(lines(source), []);
  });

  it("findPurityProblems() ignores comments, strings, template text, regexes and lookalikes", () => {
    const source = [
      "// process.env is read by the CLI, never here",
      "/* Deno.open(...)",
      "   Bun.file(...) */",
      'const hint = "set process.env.PI_DIR or use Buffer";',
      "const s = `Deno.cwd() ${count} Bun.argv`;",
      "const quote = /[\"'`]process\\./g;",
      "const buffer = new ArrayBuffer(8); const view = new SharedArrayBuffer(8);",
      "const ratio = total / count / 2; const note = 'import x from \"node:fs\"';",
      "const o = { process: 1 }; o.process.toString();",
    ].join("\n");
    assert.deepEqual(lines(source), []);
  });

  it("findPurityProblems() finds code inside template expressions and counts lines after them", () => {
    const source = [
      "const a = `multi",
      "line ${process.env.HOME} text",
      "`;",
      "/* a",
      "   block */ const b = Buffer;",
    ].join("\n");
    assert.deepEqual(lines(source), [
      "2: uses process, which core must not touch",
      "5: uses Buffer, which core must not touch",
    ]);
  });
});
