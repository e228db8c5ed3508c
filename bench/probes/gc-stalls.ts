/**
 * A probe for a server run by hand (`BENCH_SERVER_NODE_ARGS="--import ./bench/probes/gc-stalls.ts"`; Node 24
 * runs the TypeScript as is): every time the event loop was held up more than 8 ms (a 1 ms timer fired late)
 * and every GC pause over 1 ms, with their times (Unix ms), appended once a second to
 * `$PROBE_OUT/stalls-<pid>.jsonl` (PROBE_OUT defaults to the OS temp folder). Put side by side, they show
 * which stalls a GC explains (see bench/README.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const file = path.join(process.env.PROBE_OUT ?? os.tmpdir(), `stalls-${process.pid}.jsonl`);
const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const STALL_MS = 8;
/** Unix ms (to compare with the generator's BENCH_TIMELINE) of a performance.now() reading. */
const unix = (ms: number) => Math.round(performance.timeOrigin + ms);

let lines: string[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration <= 1) continue;
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    const gc = kind === undefined ? 'unknown' : (KINDS[kind] ?? String(kind));
    lines.push(JSON.stringify({ at: unix(entry.startTime), gc, ms: +entry.duration.toFixed(2) }));
  }
}).observe({ entryTypes: ['gc'] });

let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const gap = now - last;
  last = now;
  if (gap > STALL_MS) lines.push(JSON.stringify({ at: unix(now - gap), stall: +gap.toFixed(1) }));
}, 1).unref();

setInterval(() => {
  if (!lines.length) return;
  fs.appendFileSync(file, lines.join('\n') + '\n');
  lines = [];
}, 1000).unref();
