/**
 * The check behind `scripts/check-core-purity.ts`: `src/core/**` may use Web APIs only, so
 * it must not import runtime modules or touch `Deno.`, `Bun.`, `process.` or `Buffer`.
 * @module
 */

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** One finding, at a 1-based line of a file. */
export interface PurityProblem {
  file: string;
  line: number;
  message: string;
}

/** npm packages known to need nothing beyond Web APIs, so core may import them. */
export const PURE_PACKAGES: readonly string[] = ["jsonc-parser"];

const CORE_DIR = "src/core";
const RUNTIME_GLOBAL = /(?<![\w$.])(?:globalThis\s*\.\s*)?(Deno|Bun|process)\s*(?:\?\.|\.|\[)|(?<![\w$.])(?:globalThis\s*\.\s*)?(Buffer)\b/g;
const IMPORT = /(?<![\w$.])(?:(from|import)\s*|(import|require)\s*\(\s*)["'`]/g;
const REGEX_AFTER_WORD = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"]);

/** `file:line: message`, the way the CLI prints a problem. */
export function formatProblem(problem: PurityProblem): string {
  return `${problem.file}:${problem.line}: ${problem.message}`;
}

/**
 * The problems in one core source file. `file` is its path from the repository root with
 * `/` separators (e.g. `src/core/tree/session-tree.ts`); relative imports resolve against it.
 */
export function findPurityProblems(file: string, source: string): PurityProblem[] {
  const { code, noComments } = maskSource(source);
  const problems: PurityProblem[] = [];
  const report = (index: number, message: string) => problems.push({ file, line: lineAt(source, index), message });

  for (const match of code.matchAll(RUNTIME_GLOBAL)) {
    report(match.index, `uses ${match[1] ?? match[2]}, which core must not touch`);
  }
  for (const match of code.matchAll(IMPORT)) {
    const quoteAt = match.index + match[0].length - 1;
    const closeAt = noComments.indexOf(noComments[quoteAt]!, quoteAt + 1);
    const specifier = noComments.slice(quoteAt + 1, closeAt);
    const typeOnly = match[1] === "from" && isTypeOnlyStatement(code, match.index);
    const why = importProblem(file, specifier, typeOnly);
    if (why !== null) report(match.index, why);
  }
  return problems.sort((a, b) => a.line - b.line);
}

function importProblem(file: string, specifier: string, typeOnly: boolean): string | null {
  if (specifier.startsWith("node:")) return `imports "${specifier}", a Node built-in`;
  if (specifier === "bun" || specifier.startsWith("bun:")) return `imports "${specifier}", a Bun built-in`;
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    const inside = resolvePosix(file, specifier).startsWith(`${CORE_DIR}/`);
    return inside || typeOnly ? null : `imports "${specifier}" from outside ${CORE_DIR}`;
  }
  const bare = specifier.replace(/^npm:/, "");
  const name = bare.match(/^(@[^/@]+\/[^/@]+|[^/@]+)/)?.[1] ?? bare;
  return PURE_PACKAGES.includes(name) ? null : `imports "${specifier}", which is not a known pure package`;
}

/** Whether the `import`/`export` statement that `from` (at `fromAt`) ends is `import type`/`export type`. */
function isTypeOnlyStatement(code: string, fromAt: number): boolean {
  const keyword = [...code.slice(0, fromAt).matchAll(/\b(?:import|export)\b/g)].at(-1);
  return keyword !== undefined && /^\s+type\s/.test(code.slice(keyword.index + "import".length, fromAt));
}

function resolvePosix(file: string, specifier: string): string {
  const parts = file.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf("\n"); i !== -1 && i < index; i = source.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Two same-length views of `source`: `noComments` with comments blanked, and `code` with
 * the insides of strings, template text and regex literals blanked too. Newlines survive,
 * so an index means the same line in both.
 */
function maskSource(source: string): { code: string; noComments: string } {
  const code = source.split("");
  const noComments = source.split("");
  const blank = (from: number, to: number, views: string[][]) => {
    for (let i = from; i < to; i++) if (source[i] !== "\n") for (const view of views) view[i] = " ";
  };

  const previousWord = (at: number): string => {
    let i = at;
    while (i > 0 && /\s/.test(code[i - 1]!)) i--;
    let start = i;
    while (start > 0 && /[\w$]/.test(code[start - 1]!)) start--;
    return start < i ? code.slice(start, i).join("") : i > 0 ? code[i - 1]! : "";
  };
  const regexMayStart = (at: number): boolean => {
    const before = previousWord(at);
    if (before === "") return true;
    if (/^[\w$]+$/.test(before)) return REGEX_AFTER_WORD.has(before);
    return "(,=:[!&|?{};+-*%<>~^".includes(before);
  };

  // Scans code from `i`; inside a template's `${…}`, stops after the matching `}`.
  const scanCode = (start: number, inTemplate: boolean): number => {
    let depth = 0;
    let i = start;
    while (i < source.length) {
      const c = source[i]!;
      const next = source[i + 1];
      if (c === "/" && next === "/") {
        const end = source.indexOf("\n", i);
        const stop = end === -1 ? source.length : end;
        blank(i, stop, [code, noComments]);
        i = stop;
      } else if (c === "/" && next === "*") {
        const end = source.indexOf("*/", i + 2);
        const stop = end === -1 ? source.length : end + 2;
        blank(i, stop, [code, noComments]);
        i = stop;
      } else if (c === '"' || c === "'") {
        const stop = skipQuoted(source, i + 1, c);
        blank(i + 1, stop - 1, [code]);
        i = stop;
      } else if (c === "`") {
        i = scanTemplate(i + 1);
      } else if (c === "/" && regexMayStart(i)) {
        const stop = skipRegex(source, i + 1);
        blank(i + 1, stop - 1, [code]);
        i = stop;
      } else {
        if (c === "{") depth++;
        if (c === "}" && depth-- === 0 && inTemplate) return i + 1;
        i++;
      }
    }
    return i;
  };
  const scanTemplate = (start: number): number => {
    let i = start;
    while (i < source.length && source[i] !== "`") {
      if (source[i] === "\\") i += 2;
      else if (source[i] === "$" && source[i + 1] === "{") {
        blank(start, i, [code]);
        i = scanCode(i + 2, true);
        start = i;
      } else i++;
    }
    blank(start, Math.min(i, source.length), [code]);
    return i + 1;
  };

  scanCode(0, false);
  return { code: code.join(""), noComments: noComments.join("") };
}

/** Index just past the closing quote (or the line end, for an unterminated string). */
function skipQuoted(source: string, i: number, quote: string): number {
  while (i < source.length && source[i] !== quote && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** Index just past a regex literal's closing `/` (flags are ordinary code). */
function skipRegex(source: string, i: number): number {
  let inClass = false;
  while (i < source.length && source[i] !== "\n") {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) return i + 1;
    i++;
  }
  return i;
}

/** Checks every `.ts` file under `<root>/src/core`, in a stable order. */
export async function checkCorePurity(root: string): Promise<{ files: number; problems: PurityProblem[] }> {
  const files = (await listTypeScript(join(root, CORE_DIR), CORE_DIR)).sort();
  const problems: PurityProblem[] = [];
  for (const file of files) {
    problems.push(...findPurityProblems(file, await readFile(join(root, file), "utf8")));
  }
  return { files: files.length, problems };
}

async function listTypeScript(dir: string, relative: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${relative}/${entry.name}`;
    if (entry.isDirectory()) found.push(...await listTypeScript(join(dir, entry.name), path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}
