/** The longest gap between two ticks of a 1 ms timer while `work` runs: the event loop's longest stall. */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; ms: number; stall: number }> {
  let last = performance.now();
  let stall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  // A stall just before the end shows at the next tick.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(probe);
  return { result, ms, stall: Math.max(stall, performance.now() - last) };
}
