import { readdirSync, readFileSync } from 'node:fs';

/**
 * How long a process's threads were runnable but waiting for a CPU (the run queue), in µs: the second
 * field of /proc/<pid>/task/<tid>/schedstat (ns), summed over its threads. On this shared 2-core VM a
 * high p99 with little steal is mostly this: the measured processes queueing behind each other and the
 * other sessions' work. 0 for a process that has ended (or a kernel without schedstats).
 */
export function runQueueWaitMicros(pid: number): number {
  let nanos = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      nanos += Number(fields[1] ?? 0);
    }
  } catch {
    // Ended (or a thread ended) while being read.
  }
  return nanos / 1000;
}

/** Readings of several processes, by pid. */
export function runQueueWaitOf(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, runQueueWaitMicros(pid)]));
}

/**
 * The wait (µs) between two readings: a process that started in between counts whole (all its life was
 * in the window), one that ended in between is left out (a PostgreSQL backend closed mid-phase).
 */
export function runQueueWaitBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}
