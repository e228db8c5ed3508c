/** Named timers (a room's limit, a side's grace), each cleared on every path and all at once on close. */
export class Timers {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly onError: (err: unknown) => void) {}

  set(key: string, ms: number, fn: () => void): void {
    this.clear(key);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
    }, ms);
    timer.unref();
    this.timers.set(key, timer);
  }

  has(key: string): boolean {
    return this.timers.has(key);
  }

  clear(key: string): void {
    const timer = this.timers.get(key);
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
