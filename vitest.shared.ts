// Time limits every package's vitest config shares. They are sized for a loaded 2-core machine:
// a limit only stops a test that hangs, it never judges how fast a test was.
export const timeLimits = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  teardownTimeout: 30_000,
  // expect.poll gives up after 1 s by default: a connection's close, say, can take longer to be
  // seen when the machine is busy and the test forces garbage collections.
  expect: { poll: { timeout: 30_000 } },
} as const;
