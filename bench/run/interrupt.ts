/**
 * What to stop when a run is interrupted (Ctrl-C, SIGTERM). Every process the run starts is in a session
 * of its own, so the terminal's SIGINT reaches none of them: without this, the nodes, the private
 * PostgreSQL and Redis, and the busy loops would outlive an interrupted run.
 */
const stops = new Set<() => Promise<void>>();

/** Registers `stop` until the returned function is called (once what it stops is stopped anyway). */
export function stopOnInterrupt(stop: () => Promise<void>): () => void {
  stops.add(stop);
  return () => stops.delete(stop);
}

/** On SIGINT or SIGTERM: every registered stop at once, then exit with 130. */
export function handleInterrupts(): void {
  const interrupted = () =>
    void Promise.allSettled([...stops].map((stop) => stop())).then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
}
