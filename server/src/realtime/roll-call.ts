/**
 * A roll call (coordinator.ts): after a takeover, the loaded state names other nodes' connections that may
 * have closed while no coordinator heard it (or died with their node); while coordinating, every so often,
 * the other nodes' connections it holds (a node may die, or a `closed` message be lost, at any time). Each
 * node answers for its own, and those nobody vouches for within two renewals close as any connection does
 * (a call's side gets its grace period). This node's own were checked as they loaded.
 */
export class RollCall {
  /** Set once the roll call went out: connections named later are not asked about. */
  private rolled = false;
  private readonly named = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;

  /** The state loaded names another node's connection. */
  name(node: string, conn: string): void {
    if (this.rolled) return;
    const conns = this.named.get(node) ?? new Set<string>();
    this.named.set(node, conns.add(conn));
  }

  /** The roll call goes out: whom it asks about, by node. */
  call(): Record<string, string[]> {
    this.rolled = true;
    const conns: Record<string, string[]> = {};
    for (const [node, set] of this.named) conns[node] = [...set];
    return conns;
  }

  /** Those nobody vouched for within `ms` are `gone`, then. */
  expireAfter(ms: number, gone: (node: string, conn: string) => void): void {
    this.silentAfter(ms, (node, conns) => {
      for (const conn of conns) gone(node, conn);
    });
  }

  /** The nodes that did not answer within `ms`, each with its connections named, are handed to `silent`. */
  silentAfter(ms: number, silent: (node: string, conns: readonly string[]) => void): void {
    if (!this.named.size) return;
    this.timer = setTimeout(() => {
      const named = [...this.named];
      this.named.clear();
      for (const [node, set] of named) silent(node, [...set]);
    }, ms);
    this.timer.unref();
  }

  /** A node answered the roll call: its connections named are still open. */
  answered(node: string, conns: readonly string[], gone: (node: string, conn: string) => void): void {
    const named = this.named.get(node);
    if (!named) return;
    for (const conn of conns) named.delete(conn);
    // Whatever it did not name is gone, now.
    for (const conn of named) gone(node, conn);
    this.named.delete(node);
  }

  /** Someone named is still waited for. */
  get pending(): boolean {
    return this.named.size > 0;
  }

  /** The term is over: nobody is waited for any more. */
  end(): void {
    clearTimeout(this.timer);
  }
}

/** Replayable frames this node forwarded lately, for the next coordinator: it may have died with them. */
export class RecentFrames<F> {
  private recent: { at: number; conn: string; frame: F }[] = [];

  /** Twice the lease's lifetime: a crashed holder is replaced within it. */
  constructor(private readonly keepMs: number) {}

  remember(conn: string, frame: F): void {
    const now = Date.now();
    const since = now - this.keepMs;
    if (this.recent[0] && this.recent[0].at < since) this.recent = this.recent.filter((r) => r.at >= since);
    this.recent.push({ at: now, conn, frame });
  }

  /** The frames kept (still recent), to send again; forgotten here. */
  take(): { conn: string; frame: F }[] {
    const since = Date.now() - this.keepMs;
    const kept = this.recent.filter((r) => r.at >= since);
    this.recent = [];
    return kept;
  }
}
