// Progress lines while the bench runs, with the time since it started.
const startedAt = performance.now();

export function progress(message: string) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  console.log(`[bench ${seconds}s] ${message}`);
}
