/**
 * The viewer bundle is generated (scripts/build-viewer.ts) and checked in so every runtime and
 * the compiled binary embed it; this catches a bundle older than its sources, and a bundle
 * that could break out of its <script> element.
 */
import { it } from "node:test";
import assert from "node:assert/strict";
import { viewerSourceHash } from "../../../scripts/viewer-source-hash.ts";
import { VIEWER_JS, VIEWER_SOURCE_HASH } from "../../../src/export/html/viewer-bundle.ts";

it("the viewer bundle is built from the current sources (else run `npx tsx scripts/build-viewer.ts`)", () => {
  assert.equal(VIEWER_SOURCE_HASH, viewerSourceHash());
});

it("the viewer bundle can be inlined: no </script, <!-- or <script in it", () => {
  assert.doesNotMatch(VIEWER_JS, /<\/script|<!--|<script/i);
  assert.ok(VIEWER_JS.length > 10_000);
});
