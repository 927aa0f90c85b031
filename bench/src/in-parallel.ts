/** `count` calls of `work`, `connections` at a time, taken in index order; resolves to each one's result. */
export async function inParallel<T>(
  count: number,
  connections: number,
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return results;
}
