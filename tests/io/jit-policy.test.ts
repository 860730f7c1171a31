/**
 * `setJitPolicy` (src/io/jit-policy.ts): Bun's JIT policy where the runtime has one, nothing
 * elsewhere, and never an error (Bun refuses a scale under 1 or not finite).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { setJitPolicy } from "../../src/io/jit-policy.ts";

test("setJitPolicy() sets a scale where Bun lets it, and never throws", () => {
  for (const scale of [8, 1, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.doesNotThrow(() => setJitPolicy(scale), String(scale));
  // Back to the usual policy for the tests after.
  setJitPolicy(1);
});

const runtime = globalThis as { Bun?: { unsafe?: { setJITPolicy?: unknown } } };
const isBun = runtime.Bun !== undefined;

test("the Bun of this project has Bun.unsafe.setJITPolicy (else the policy is never set)", { skip: !isBun }, () => {
  assert.equal(typeof runtime.Bun?.unsafe?.setJITPolicy, "function");
});

// Bun's own global cannot be replaced: elsewhere, a stand-in tells what is asked of it.
test("setJitPolicy() passes the scale to Bun.unsafe.setJITPolicy", { skip: isBun }, () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, "Bun");
  const asked: number[] = [];
  Object.defineProperty(globalThis, "Bun", { value: { unsafe: { setJITPolicy: (scale: number) => void asked.push(scale) } }, configurable: true, writable: true });
  try {
    setJitPolicy(8);
    assert.deepEqual(asked, [8]);
  } finally {
    if (had) Object.defineProperty(globalThis, "Bun", had);
    else delete runtime.Bun;
  }
});
