/**
 * Runs async tasks one at a time in arrival order. Inbound frames, acks and outbox flushes all go
 * through one queue so that their effects on the database happen in the order the server meant.
 */
export class TaskQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  push(task: () => Promise<void>): Promise<void> {
    const run = this.tail.then(task).catch(this.onError);
    this.tail = run;
    return run;
  }

  /** Resolves once every task pushed so far has finished. */
  idle(): Promise<void> {
    return this.tail;
  }
}
