/**
 * Polls `check` (it may read a database or Redis, so it may be asynchronous) every `stepMs` until it holds;
 * throws naming `what` once `timeoutMs` has passed.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
  stepMs = 10,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
