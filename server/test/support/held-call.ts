/**
 * Holds every call of `target[method]` (an async method) until `release`: what the server reads while a
 * test's next frame overtakes it. `restore` puts the method back (calls already held still wait for
 * `release`).
 */
export function holdCalls<T extends object, K extends keyof T>(
  target: T,
  method: K,
): { release: () => void; restore: () => void } {
  const original = target[method];
  if (typeof original !== 'function') throw new Error(`${String(method)} is not a method`);
  const call = (original as (...args: unknown[]) => Promise<unknown>).bind(target);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = async (...args: unknown[]) => {
    await held;
    return call(...args);
  };
  target[method] = holding as T[K];
  return { release, restore: () => void (target[method] = original) };
}
