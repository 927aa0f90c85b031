// Small statistics over timing samples.

export function median(samples: number[]) {
  if (samples.length === 0) throw new Error("median of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  // Odd count: the middle sample twice; even count: the two around the middle.
  const lower = sorted[sorted.length % 2 === 1 ? middle : middle - 1] ?? Number.NaN;
  const upper = sorted[middle] ?? Number.NaN;
  return (lower + upper) / 2;
}

/** The 99th percentile: the sample that 99% of the samples do not exceed. */
export function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
}

/** Runs `measure` `times` times, one after another, and returns the median. */
export async function medianOf(times: number, measure: () => Promise<number>) {
  const samples = [];
  for (let i = 0; i < times; i++) samples.push(await measure());
  return median(samples);
}

/** The lowest and the highest sample. */
export function spreadOf(samples: number[]): [number, number] {
  return [Math.min(...samples), Math.max(...samples)];
}
