/**
 * How eagerly the engine compiles hot code, for a short command whose work is one pass over many
 * rows: Bun's `Bun.unsafe.setJITPolicy` (scale 1 is the usual policy; `scale` times as many runs
 * of a function or loop before each tier up). Elsewhere (Node, Deno, a Bun without it) nothing.
 *
 * A warm `list --all` of 25,000 sessions runs each of its loops 25,000 times once: the optimizing
 * compilers' work (their threads' CPU and memory) cost it more than their code saved. At scale 8,
 * by hand, 8 runs each alternating with scale 1, the machine loaded: 7,600–7,700 page faults
 * against 8,400–8,600, and less CPU (0.37–0.44 s against 0.39–0.50).
 * @module
 */

/** Sets the engine's JIT policy to `scale` (≥ 1) where the runtime lets us; never throws. */
export function setJitPolicy(scale: number): void {
  const unsafe = (globalThis as { Bun?: { unsafe?: { setJITPolicy?: (scale: number) => void } } }).Bun?.unsafe;
  try {
    unsafe?.setJITPolicy?.(scale);
  } catch {
    // An older Bun, or a scale it refuses: the usual policy stays.
  }
}
