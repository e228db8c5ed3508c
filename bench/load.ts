/**
 * The load generator (its own process, pinned to the other core by run.ts). Connects 1,000 clients
 * (alternating between the server's nodes when it runs as several), measures the server's idle memory
 * per connection, then sends an open-loop schedule: send times are
 * fixed in advance at the target rate and never wait for replies, and latencies count from the planned
 * send time, so a slow server cannot slow the load down and hide its own delay (coordinated omission).
 * Configuration comes as JSON in BENCH_CONFIG; results go as JSON to `out`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectClient, type LoadClient } from './load/clients';
import { readProcesses, totalRssKb, usedBetween } from './load/process-readings';
import { MessageTracker } from './load/tracker';
import type { CpuUse, LoadConfig, LoadResult, PhaseResult } from './load/types';
import { CLIENT_COUNT, groupIdOf, MESSAGE_CONTENT, nodeOfClient, seededRandom } from './shared/population';
import { machineBusyMicros, readCpuTimes, stealPercent } from './shared/proc';

const CONNECT_CONCURRENCY = 50;
const config = JSON.parse(process.env.BENCH_CONFIG ?? '{}') as LoadConfig;
const tokens = config.tokensFile
  ? (JSON.parse(readFileSync(config.tokensFile, 'utf8')) as string[])
  : undefined;

const capacity =
  config.warmupRate * config.warmupSeconds + config.rates.reduce((sum, r) => sum + r * config.seconds, 0);
const tracker = new MessageTracker(capacity, config.nodes.length);
const errors: Record<string, number> = {};
const events = {
  onAck: (_client: number, mid: number, now: number) => tracker.ack(mid, now),
  onReceive: (client: number, id: string, now: number) => tracker.receive(client, id, now),
  onError: (_client: number, error: string) => void (errors[error] = (errors[error] ?? 0) + 1),
};

async function connectAll(): Promise<LoadClient[]> {
  const clients: LoadClient[] = [];
  for (let first = 0; first < CLIENT_COUNT; first += CONNECT_CONCURRENCY) {
    const batch = [];
    for (let i = first; i < Math.min(CLIENT_COUNT, first + CONNECT_CONCURRENCY); i++)
      batch.push(
        connectClient(
          i,
          { target: config.target, url: config.nodes[nodeOfClient(i, config.nodes.length)]!.url, tokens },
          events,
        ),
      );
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

/** How long before a planned send the generator stops sleeping on a timer and polls instead. */
const SPIN_MS = 1.5;

let nextMessage = 0;
const random = seededRandom(20261123);
const deviceIds = Array.from({ length: CLIENT_COUNT }, (_, i) => `bench-device-${i}`);

/** Sends `rate × seconds` messages at fixed planned times from random senders; resolves after the last. */
function runSchedule(clients: LoadClient[], phase: number, rate: number, seconds: number): Promise<void> {
  const first = nextMessage;
  const count = rate * seconds;
  nextMessage += count;
  const interval = 1000 / rate;
  const start = performance.now() + 5;
  for (let k = 0; k < count; k++)
    tracker.plan(first + k, phase, start + k * interval, Math.floor(random() * CLIENT_COUNT));

  let k = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (k < count && start + k * interval <= now) {
        const messageNo = first + k++;
        const sender = tracker.sender[messageNo]!;
        clients[sender]!.send({
          type: 'send_group_message',
          deviceId: deviceIds[sender]!,
          mid: messageNo + 1,
          id: tracker.messageId(messageNo),
          groupId: groupIdOf(sender),
          content: MESSAGE_CONTENT,
        });
        tracker.sent(messageNo, performance.now());
      }
      if (k >= count) {
        resolve();
        return;
      }
      // Node's timers fire on whole milliseconds, at least 1 ms late: with timers alone every send went out
      // 0.5–0.8 ms after its planned time (the floor's p50 read 1.1 ms, mostly the generator). Timers take
      // the long waits; the last stretch polls with setImmediate, which still reads every socket between
      // polls. The generator's CPU then reads near 100 %: whether it kept up is the send lag's to say.
      const wait = start + k * interval - performance.now();
      if (wait > SPIN_MS) setTimeout(tick, wait - SPIN_MS);
      else setImmediate(tick);
    };
    setTimeout(tick, 5);
  });
}

async function runPhase(clients: LoadClient[], rate: number, seconds: number): Promise<PhaseResult> {
  const phase = tracker.startPhase();
  const processesBefore = readProcesses(config);
  const statBefore = readCpuTimes();
  const generatorBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await runSchedule(clients, phase, rate, seconds);
  const sendWindowMs = performance.now() - wallBefore;
  const generatorUsed = process.cpuUsage(generatorBefore);
  const generatorCpuPercent = ((generatorUsed.user + generatorUsed.system) / 1000 / sendWindowMs) * 100;
  await sleep(config.drainMs);
  const drainEnd = performance.now() + config.maxDrainMs - config.drainMs;
  while (tracker.outstanding(phase) > 0 && performance.now() < drainEnd) await sleep(100);
  const drainedMs = performance.now() - wallBefore - sendWindowMs;
  const used = usedBetween(processesBefore, readProcesses(config));
  const statAfter = readCpuTimes();
  const generatorAll = process.cpuUsage(generatorBefore);
  const otherMicros =
    machineBusyMicros(statBefore, statAfter) -
    used.allNodes -
    used.postgres -
    used.redis -
    (generatorAll.user + generatorAll.system) -
    used.busyLoops;
  const windowMs = performance.now() - wallBefore;
  const summary = tracker.summary(phase);
  const msPerSecond = (micros: number) => micros / windowMs;
  const perDelivery = (micros: number): CpuUse => ({
    micros,
    microsPerDelivery: micros / Math.max(1, summary.deliveries),
  });
  return {
    rate,
    seconds,
    ...summary,
    serverCpuMicros: used.allNodes,
    cpuMicrosPerDelivery: used.allNodes / Math.max(1, summary.deliveries),
    ...(config.nodes.length > 1 ? { nodeCpuMicros: used.nodes } : {}),
    ...(config.services
      ? { postgresCpu: perDelivery(used.postgres), redisCpu: perDelivery(used.redis) }
      : {}),
    generatorCpuPercent,
    drainedMs,
    runQueueWaitMsPerSecond: {
      nodes: msPerSecond(used.nodesWait),
      ...(config.services ? { postgres: msPerSecond(used.postgresWait) } : {}),
    },
    stealPercent: {
      all: stealPercent(statBefore, statAfter),
      cpu0: stealPercent(statBefore, statAfter, 'cpu0'),
      cpu1: stealPercent(statBefore, statAfter, 'cpu1'),
    },
    otherLoadPercent: Math.max(0, (otherMicros / 1000 / windowMs) * 100),
  };
}

async function main(): Promise<void> {
  await sleep(1000);
  const rssBeforeKb = totalRssKb(config);
  const processesBefore = readProcesses(config);
  const connectStart = performance.now();
  const clients = await connectAll();
  const connectMs = performance.now() - connectStart;
  // The server's own CPU for the connects: steadier than the wall time from run to run.
  const connectCpuMs = usedBetween(processesBefore, readProcesses(config)).allNodes / 1000;
  // Let connection-time work (presence, snapshots) settle before reading idle memory (waiting 10 s instead
  // of 3 changed nothing measurable: the heap V8 grew while connecting is not given back either way).
  await sleep(config.idleSettleMs);
  const rssIdleKb = totalRssKb(config);
  process.stderr.write(
    `  ${CLIENT_COUNT} clients connected in ${Math.round(connectMs)} ms (server CPU ${Math.round(connectCpuMs)} ms)\n`,
  );

  await runPhase(clients, config.warmupRate, config.warmupSeconds);
  const phases: PhaseResult[] = [];
  for (const rate of config.rates) {
    const result = await runPhase(clients, rate, config.seconds);
    const routes = result.routes
      ? ` (same node ${result.routes.sameNode.ms.p99?.toFixed(1)}, cross-node ${result.routes.crossNode.ms.p99?.toFixed(1)})`
      : '';
    process.stderr.write(
      `  ${rate} msg/s: p99 receive ${result.ms.receiveP99?.toFixed(1)} ms${routes}, lost ${result.lost}, ` +
        `${result.cpuMicrosPerDelivery.toFixed(1)} µs/delivery\n`,
    );
    phases.push(result);
  }
  for (const client of clients) client.close();

  const result: LoadResult = {
    target: config.target,
    nodeCount: config.nodes.length,
    connectMs,
    connectCpuMs,
    rssBeforeKb,
    rssIdleKb,
    idleKbPerConnection: (rssIdleKb - rssBeforeKb) / CLIENT_COUNT,
    errors,
    phases,
  };
  writeFileSync(config.out, JSON.stringify(result, null, 2));
  if (process.env.BENCH_TIMELINE) writeTimeline(process.env.BENCH_TIMELINE);
  process.exit(0);
}

/**
 * BENCH_TIMELINE=<folder> (a run by hand): each message's planned send time (Unix ms, comparable with a probe's
 * timestamps on the server) and its slowest delivery, one line each, in `timeline-<target>.tsv`: shows
 * whether the p99 comes from a few stalls (and when) or from every message.
 */
function writeTimeline(folder: string): void {
  const lines = ['sent_unix_ms\tslowest_ms\tsend_lag_ms\tack_ms'];
  for (let n = 0; n < nextMessage; n++)
    lines.push(
      [
        (performance.timeOrigin + tracker.scheduledAt[n]!).toFixed(1),
        tracker.slowest[n]!.toFixed(2),
        tracker.lag[n]!.toFixed(2),
        tracker.ackMs[n]!.toFixed(2),
      ].join('\t'),
    );
  writeFileSync(path.join(folder, `timeline-${config.target}.tsv`), lines.join('\n') + '\n');
  // The generator's own collections: a pause here delays the receives it timestamps, whatever the server did.
  const gcLines = generatorGcs.map(([at, ms, kind]) => `${at.toFixed(1)}\t${ms.toFixed(2)}\t${kind}`);
  writeFileSync(
    path.join(folder, `generator-gc-${config.target}.tsv`),
    ['at_unix_ms\tms\tkind', ...gcLines].join('\n') + '\n',
  );
}

/** The generator's GC pauses over 1 ms (Unix ms, ms, kind), recorded only for BENCH_TIMELINE. */
const generatorGcs: [number, number, number][] = [];
if (process.env.BENCH_TIMELINE)
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 1)
        generatorGcs.push([
          performance.timeOrigin + entry.startTime,
          entry.duration,
          (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0,
        ]);
  }).observe({ entryTypes: ['gc'] });

main().catch((error: unknown) => {
  process.stderr.write(`load generator failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
