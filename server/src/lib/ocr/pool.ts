/** One recognition engine (a tesseract.js worker thread in production, a fake in tests). */
export interface OcrEngine {
  /** A prepared image → its text. */
  recognize(image: Buffer): Promise<string>;
  /** Ends the thread at once, even mid-recognition. */
  terminate(): Promise<void>;
}

export interface PoolOptions {
  /** Engines at most (one per core: a recognition keeps one core busy for its whole second). */
  size: number;
  /** Starts an engine; called lazily, only when a job finds no idle engine and the pool is not full. */
  start: () => Promise<OcrEngine>;
  /** A recognition taking longer ends its engine (a pathological image must not hold a core forever). */
  timeoutMs: number;
  /** Jobs waiting for an engine at most; more are refused at once (the server is saturated). */
  maxQueue: number;
}

/** Every engine is busy and the queue is full, or the pool is closed: try again later (503). */
export class OcrBusyError extends Error {}
/** The recognition ran out of time; its engine was ended. */
export class OcrTimeoutError extends Error {}

interface Job {
  image: Buffer;
  resolve: (text: string) => void;
  reject: (error: unknown) => void;
}

/**
 * A small pool of engines, started on demand and kept for reuse: loading the models costs ~0.6 s, a
 * recognition ~1 s, so an engine is worth keeping once started. Jobs beyond the engines wait in a short
 * FIFO queue.
 */
export class OcrPool {
  private readonly idle: OcrEngine[] = [];
  private readonly queue: Job[] = [];
  private busy = 0;
  private starting = 0;
  private closed = false;
  private readonly all = new Set<OcrEngine>();
  /** Engines started so far (tests check reuse). */
  started = 0;

  constructor(private readonly options: PoolOptions) {}

  get stats() {
    return { started: this.started, live: this.all.size, busy: this.busy, queued: this.queue.length };
  }

  /** True when a job now would be refused: callers skip preparing an image that cannot be read. */
  get saturated(): boolean {
    return this.closed || this.queue.length >= this.options.maxQueue;
  }

  recognize(image: Buffer): Promise<string> {
    if (this.closed) return Promise.reject(new OcrBusyError('text recognition is shutting down'));
    if (this.queue.length >= this.options.maxQueue)
      return Promise.reject(new OcrBusyError('text recognition is saturated'));
    return new Promise((resolve, reject) => {
      this.queue.push({ image, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new OcrBusyError('text recognition is shutting down'));
    const engines = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(engines.map((engine) => engine.terminate().catch(() => {})));
  }

  private dispatch(): void {
    while (this.queue.length && this.idle.length) this.run(this.idle.pop()!, this.queue.shift()!);
    const waiting = this.queue.length - this.starting;
    const room = this.options.size - this.all.size - this.starting;
    for (let i = 0; i < Math.min(waiting, room); i++) void this.startEngine();
  }

  private async startEngine(): Promise<void> {
    this.starting++;
    this.started++;
    let engine: OcrEngine;
    try {
      engine = await this.options.start();
    } catch (error) {
      this.starting--;
      // The next start would fail alike (missing models, no memory): fail the waiting jobs, not retry.
      if (!this.all.size && !this.starting) for (const job of this.queue.splice(0)) job.reject(error);
      return;
    }
    this.starting--;
    if (this.closed) {
      await engine.terminate().catch(() => {});
      return;
    }
    this.all.add(engine);
    this.idle.push(engine);
    this.dispatch();
  }

  private run(engine: OcrEngine, job: Job): void {
    this.busy++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OcrTimeoutError('text recognition timed out')),
        this.options.timeoutMs,
      );
    });
    Promise.race([engine.recognize(job.image), timeout])
      .then(
        (text) => {
          job.resolve(text);
          this.release(engine, true);
        },
        (error: unknown) => {
          job.reject(error);
          // A timed-out or failed engine may be stuck or corrupt: end it; the next job starts a fresh one.
          this.release(engine, false);
        },
      )
      .finally(() => clearTimeout(timer));
  }

  private release(engine: OcrEngine, healthy: boolean): void {
    this.busy--;
    if (!this.all.has(engine)) return; // closed meanwhile
    if (healthy) this.idle.push(engine);
    else {
      this.all.delete(engine);
      void engine.terminate().catch(() => {});
    }
    this.dispatch();
  }
}
