/**
 * The seeded randomness of the session generators (gen-sessions, gen-big-session and the
 * bench's list corpus): the same seed always gives the same shapes.
 * @module
 */

/** The small public-domain mulberry32 generator: uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rand {
  next: () => number;
  int: (lo: number, hi: number) => number;
  chance: (p: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
  /** Unix milliseconds that only move forward, for `message.timestamp`. */
  now: () => number;
}

/** How the clock of `Rand.now` starts and moves. */
export interface ClockShape {
  /** The clock starts up to 1e9 ms after this. */
  start: number;
  /** Each call moves it on by a whole number of ms in [min, max]. */
  step: [number, number];
}

export function makeRand(seed: number, clock: ClockShape): Rand {
  const next = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  let now = clock.start + int(0, 1e9);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    now: () => (now += int(clock.step[0], clock.step[1])),
  };
}
