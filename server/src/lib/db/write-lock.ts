import { AsyncLocalStorage } from 'node:async_hooks';
import type SQLite from 'better-sqlite3';

const RESOLVED: Promise<void> = Promise.resolve();

interface HolderScope {
  open: boolean;
}

/**
 * One writer at a time on one SQLite handle. better-sqlite3 has a single connection, so a transaction that
 * spans `await`s (the engine's async `Tx`, a Kysely transaction) would otherwise take in whatever query
 * another request runs in between, or fail on a second BEGIN. The engine's commits and every Kysely query
 * take this lock; FIFO, so commits keep their arrival order.
 */
export class WriteLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];
  private readonly scope = new AsyncLocalStorage<HolderScope>();

  /** Takes the lock now if it is free (no promise, no turn given away). */
  tryAcquire(): boolean {
    if (this.held) return false;
    this.held = true;
    return true;
  }

  /** Resolves once the caller holds the lock. */
  acquire(): Promise<void> {
    if (this.tryAcquire()) return RESOLVED;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Hands the lock to the next waiter, or frees it. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /**
   * Runs the holder's work so that code it calls can tell (`insideHolder`): waiting for the lock from there
   * would wait for itself forever, so such a call fails loudly instead (e.g. `deps.db` used inside a commit).
   */
  async runAsHolder<T>(fn: () => Promise<T>): Promise<T> {
    const scope: HolderScope = { open: true };
    try {
      return await this.scope.run(scope, fn);
    } finally {
      scope.open = false;
    }
  }

  get insideHolder(): boolean {
    return this.scope.getStore()?.open === true;
  }
}

const locks = new WeakMap<SQLite.Database, WriteLock>();

/** The lock of a database handle (one per handle: the Kysely instance and the transactor share it). */
export function writeLockOf(sqlite: SQLite.Database): WriteLock {
  let lock = locks.get(sqlite);
  if (!lock) locks.set(sqlite, (lock = new WriteLock()));
  return lock;
}
