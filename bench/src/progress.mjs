// Progress lines while the bench runs, with the time since it started.
const startedAt = performance.now();

/** @param {string} message */
export function progress(message) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  console.log(`[bench ${seconds}s] ${message}`);
}
