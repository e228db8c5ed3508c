import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh temp folder for a benchmark's database, on tmpfs (/dev/shm) where the machine has one. On the
 * disk, SQLite's WAL checkpoints (every ~1,000 pages: about every 280 ms at 1,000 msg/s) waited for the
 * disk and stalled every server for 10–20 ms, which was most of the measured p99. BENCH_DATA_BASE names
 * another base folder, e.g. one on the disk to measure what a deployment's disk costs each server.
 */
export function benchTempDir(prefix: string): string {
  const base = process.env.BENCH_DATA_BASE ?? (existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());
  return mkdtempSync(path.join(base, prefix));
}
