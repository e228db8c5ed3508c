/**
 * Tasks one at a time, in the order they were given. A task given to an idle queue starts at once, in the
 * caller's turn: on SQLite, whose store answers synchronously, a document's writes then happen exactly
 * where they happened before the store became asynchronous.
 */
export class WorkQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.pending === 0 ? task() : this.tail.then(task);
    this.pending += 1;
    this.tail = result.then(
      () => void (this.pending -= 1),
      () => void (this.pending -= 1),
    );
    return result;
  }

  /** Resolves once every task given so far has finished (whether it succeeded or not). */
  idle(): Promise<void> {
    return this.tail;
  }
}
