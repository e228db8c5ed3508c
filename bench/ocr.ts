/**
 * Text recognition throughput (run by hand, never in CI): `pnpm --filter @campus/bench bench:ocr` or
 * `node --import tsx ocr.ts [cards]` from bench/. Options: `BENCH_POOLS=1,2` (pool sizes to measure, default
 * 1 and the server's default), `BENCH_CARDS=40`.
 *
 * Generates student-ID cards with the tests' generator (both layouts, five fonts, ±2°, noise, blur, dim
 * photos, JPEG/PNG/WebP; seeded), then for each pool size: a recognizer as the server builds it, warmed up
 * (workers started and models loaded, not timed), then every card through it with twice as many in flight
 * as workers. Reported: images per second, CPU ms per image (this process's utime + stime, worker threads
 * included, over the timed window), latency p50/p95, fields read exactly, RSS with the workers loaded, and
 * steal from /proc/stat. Both cores are kept awake by lowest-priority busy loops (see README "How it runs").
 * Results go to results/ocr-<time>.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OcrResult } from '@campus/protocol';
import { createTextRecognizer, defaultPoolSize } from '../server/src/lib/ocr';
import { renderIdCards, type IdCard } from '../server/test/support/id-cards';
import { machineBusyMicros, processCpuMicros, processRssKb, readCpuTimes, stealPercent } from './shared/proc';
import { startBusyLoops, stopProcesses } from './run/processes';

const here = path.dirname(fileURLToPath(import.meta.url));
const cardCount = Number(process.argv[2] ?? process.env.BENCH_CARDS ?? 40);
const pools = (process.env.BENCH_POOLS ?? [...new Set([1, defaultPoolSize()])].join(','))
  .split(',')
  .map(Number);

const FIELDS = ['nama', 'nim', 'kampus', 'jurusan'] as const;
const same = (field: (typeof FIELDS)[number], got: OcrResult, want: OcrResult) =>
  field === 'nim'
    ? got.nim === want.nim
    : got[field].replace(/\s+/g, ' ').trim().toLowerCase() === want[field].toLowerCase();

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function measure(poolSize: number, cards: IdCard[], warmup: IdCard[], loopMicros: () => number) {
  const langDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-bench-ocr-'));
  const recognizer = createTextRecognizer({ langDir, poolSize, maxQueue: poolSize * 4 });
  try {
    await Promise.all(warmup.slice(0, poolSize).map((card) => recognizer.recognize(card.bytes)));
    const statBefore = readCpuTimes();
    const cpuBefore = processCpuMicros(process.pid);
    const loopsBefore = loopMicros();
    const started = performance.now();
    const latencies: number[] = [];
    let right = 0;
    const misses: string[] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < cards.length; i = next++) {
        const t = performance.now();
        const got = await recognizer.recognize(cards[i]!.bytes);
        latencies.push(performance.now() - t);
        for (const field of FIELDS) {
          if (same(field, got, cards[i]!.fields)) right++;
          else
            misses.push(
              `seed ${cards[i]!.options.seed} ${field}: ${got[field]} ≠ ${cards[i]!.fields[field]}`,
            );
        }
      }
    };
    await Promise.all(Array.from({ length: poolSize * 2 }, lane));
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = (processCpuMicros(process.pid) - cpuBefore) / 1000;
    const statAfter = readCpuTimes();
    // Everything the machine ran but this process and the busy loops (which only fill idle time).
    const otherMs = (machineBusyMicros(statBefore, statAfter) - (loopMicros() - loopsBefore)) / 1000 - cpuMs;
    latencies.sort((a, b) => a - b);
    return {
      poolSize,
      workersStarted: recognizer.stats.started,
      images: cards.length,
      imagesPerSecond: Number((cards.length / seconds).toFixed(2)),
      cpuMsPerImage: Math.round(cpuMs / cards.length),
      latencyMs: { p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)) },
      fieldsExact: `${right}/${cards.length * FIELDS.length}`,
      rssMb: Math.round(processRssKb(process.pid) / 1024),
      stealPercent: Number(stealPercent(statBefore, statAfter).toFixed(1)),
      // CPU that other processes used meanwhile (100 = one core): a busy machine slows the figures down.
      otherLoadPercent: Math.round((100 * Math.max(0, otherMs)) / (seconds * 1000)),
      misses,
    };
  } finally {
    await recognizer.close();
    fs.rmSync(langDir, { recursive: true, force: true });
  }
}

const cards = await renderIdCards(cardCount, 9000);
const warmup = await renderIdCards(4, 8000);
const loops = startBusyLoops();
const loopMicros = () => loops.reduce((sum, loop) => sum + (loop.pid ? processCpuMicros(loop.pid) : 0), 0);
const results = [];
try {
  for (const size of pools) {
    const result = await measure(size, cards, warmup, loopMicros);
    results.push(result);
    console.log(JSON.stringify(result));
  }
} finally {
  await stopProcesses(loops);
}

const machine = { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version };
console.table(
  results.map(({ latencyMs, misses, ...rest }) => ({
    ...rest,
    p50: latencyMs.p50,
    p95: latencyMs.p95,
    misses: misses.length,
  })),
);
for (const { poolSize, misses } of results)
  if (misses.length) console.log(`pool ${poolSize} misses:\n${misses.join('\n')}`);
const out = path.join(here, 'results', `ocr-${new Date().toISOString().slice(0, 16).replace(':', '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ machine, cards: cardCount, results }, null, 2));
console.log(`written ${path.relative(process.cwd(), out)}`);
