/**
 * A probe for a server run by hand (`BENCH_SERVER_NODE_ARGS="--import ./bench/probes/alloc-sampling.ts"`):
 * V8's sampling heap profiler, counting the objects the GC has already collected too, so it shows where a
 * phase allocates rather than what stays. `kill -USR1 <pid>` starts it (e.g. once the load runs),
 * `kill -USR2 <pid>` writes `$PROBE_OUT/alloc-<pid>.heapprofile` (Chrome DevTools, Memory tab, opens it;
 * PROBE_OUT defaults to the OS temp folder). With `PROBE_PROMOTED=1` it leaves out what a scavenge collected:
 * what remains is what lived long enough to be promoted to the old generation (the bytes that bring the next
 * mark-compact nearer), with where it was allocated.
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

const session = new inspector.Session();
session.connect();
await session.post('HeapProfiler.enable');

process.on('SIGUSR1', () => {
  void session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.PROBE_PROMOTED !== '1',
  });
});
process.on('SIGUSR2', () => {
  void session.post('HeapProfiler.stopSampling').then(({ profile }) => {
    const file = path.join(process.env.PROBE_OUT ?? os.tmpdir(), `alloc-${process.pid}.heapprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
  });
});
