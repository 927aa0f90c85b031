// The draws a rule by probability is compared with: the nth number of mulberry32 from its seed,
// computed directly from n, so that every process draws the same sequence from a shared counter.

/** The `n`th draw (from 1) of the sequence `seed` fixes, in [0, 1). */
export function nthDraw(seed: number, n: number): number {
  // mulberry32's state after n steps is seed + n × its increment.
  let t = (seed + Math.imul(n, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
