import assert from "node:assert/strict";
import { test } from "node:test";
import { globMatcher, isGlob } from "../../../src/core/files/glob.ts";

/** Which of `paths` `pattern` matches. */
function matching(pattern: string, paths: string[]): string[] {
  const match = globMatcher(pattern);
  return paths.filter(match);
}

test("isGlob() sees *, ? and {a,b}, not brackets or a brace without a comma", () => {
  for (const glob of ["src/*.ts", "src/**", "a?.ts", "src/{a,b}.ts", "{x,y}"]) assert.equal(isGlob(glob), true, glob);
  for (const plain of ["src/parser.ts", "app/[id]/page.tsx", "a{b}c", "{unclosed,", "closed,}", "/"]) assert.equal(isGlob(plain), false, plain);
});

test("globMatcher() * and ? stay inside one name; dot files match too", () => {
  const paths = ["/p/a.ts", "/p/.env.ts", "/p/b.tsx", "/p/sub/c.ts", "/p/ab.ts"];
  assert.deepEqual(matching("/p/*.ts", paths), ["/p/a.ts", "/p/.env.ts", "/p/ab.ts"]);
  assert.deepEqual(matching("/p/?.ts", paths), ["/p/a.ts"]);
  assert.deepEqual(matching("/p/?b.ts", paths), ["/p/ab.ts"]);
  // The folder /p/sub matches too, and so does what is in it.
  assert.deepEqual(matching("/p/*b*", paths), ["/p/b.tsx", "/p/sub/c.ts", "/p/ab.ts"]);
});

test("globMatcher() ** as a segment spans any number of folders, none included", () => {
  const paths = ["/p/a.ts", "/p/x/a.ts", "/p/x/y/a.ts", "/p/x/a.js", "/q/a.ts", "/p/.git/a.ts"];
  assert.deepEqual(matching("/p/**/a.ts", paths), ["/p/a.ts", "/p/x/a.ts", "/p/x/y/a.ts", "/p/.git/a.ts"]);
  assert.deepEqual(matching("/**/a.js", paths), ["/p/x/a.js"]);
  assert.deepEqual(matching("/p/**", paths), ["/p/a.ts", "/p/x/a.ts", "/p/x/y/a.ts", "/p/x/a.js", "/p/.git/a.ts"]);
  assert.equal(globMatcher("/p/**")("/p"), false);
  // Not a whole segment: one name, like *.
  assert.deepEqual(matching("/p/x/**.ts", paths), ["/p/x/a.ts"]);
});

test("globMatcher() {a,b} takes either, nested, with slashes and globs inside", () => {
  const paths = ["/p/src/a.ts", "/p/src/a.tsx", "/p/test/a.ts", "/p/lib/a.ts", "/p/src/deep/a.ts", "/p/docs/x.md"];
  assert.deepEqual(matching("/p/{src,test}/a.ts", paths), ["/p/src/a.ts", "/p/test/a.ts"]);
  assert.deepEqual(matching("/p/src/a.{ts,tsx}", paths), ["/p/src/a.ts", "/p/src/a.tsx"]);
  assert.deepEqual(matching("/p/{src/**/a.ts,docs/*.md}", paths), ["/p/src/a.ts", "/p/src/deep/a.ts", "/p/docs/x.md"]);
  assert.deepEqual(matching("/p/{s{rc,x},l{ib,og}}/a.ts", paths), ["/p/src/a.ts", "/p/lib/a.ts"]);
  assert.deepEqual(matching("/p/{src,**}/a.ts", paths), ["/p/src/a.ts", "/p/test/a.ts", "/p/lib/a.ts", "/p/src/deep/a.ts"]);
});

test("globMatcher() takes other characters as they are: brackets, dots, plus, parentheses", () => {
  const paths = ["/p/app/[id]/page.tsx", "/p/app/i/page.tsx", "/p/a+b(1).ts", "/p/aab1.ts", "/p/a{b}.ts"];
  assert.deepEqual(matching("/p/app/[id]/*.tsx", paths), ["/p/app/[id]/page.tsx"]);
  assert.deepEqual(matching("/p/a+b(1).*", paths), ["/p/a+b(1).ts"]);
  assert.deepEqual(matching("/p/a{b}.*", paths), ["/p/a{b}.ts"]);
});

test("globMatcher() matches a path when a folder above it matches, as a plain folder path does", () => {
  const match = globMatcher("/p/packages/*");
  assert.equal(match("/p/packages/core"), true);
  assert.equal(match("/p/packages/core/src/index.ts"), true);
  assert.equal(match("/p/packages"), false);
  assert.equal(match("/p/packages-old/x"), false);
  assert.equal(globMatcher("/p/*.ts")("/p/sub/a.ts"), false);
});
