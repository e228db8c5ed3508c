/**
 * The moderation filter's speed on its worst inputs (run by hand, never in CI):
 * `pnpm --filter @campus/bench bench:moderation`. The server moderates every message, comment and confession
 * before it is stored, and the composer previews while the student pauses typing, so a 5,000-character text
 * (the longest a confession may be) must take a few milliseconds. Two inputs: ordinary text with one blocked
 * word, and one long word full of matches (each match widened to its word: walking outwards per match once
 * took 270–650 ms here; the word map makes it one pass). Prints median and worst of 50 runs per input, and a
 * doubled input beside each: a ratio near 2 says the work stays linear. Wall clock; compare runs of one session.
 */
import { moderate } from '../server/src/lib/moderation';
import { percentiles } from './shared/stats';

const RUNS = 50;

function measure(text: string): { median: number; worst: number } {
  moderate(text); // warm: the word tables are built on first use
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    moderate(text);
    times.push(performance.now() - started);
  }
  const [p50 = NaN] = percentiles(Float64Array.from(times), [50]);
  return { median: p50, worst: Math.max(...times) };
}

const inputs: [string, (length: number) => string][] = [
  [
    'ordinary text, one blocked word',
    (n) => 'kuliah pagi lagi, dosennya goblok tapi baik. '.repeat(n).slice(0, n),
  ],
  ['one word full of matches', (n) => 'dick'.repeat(Math.ceil(n / 4)).slice(0, n)],
];

console.log('input                             chars   median ms   worst ms   median ×2 input / ×1');
for (const [name, make] of inputs) {
  const once = measure(make(5000));
  const twice = measure(make(10_000));
  console.log(
    `${name.padEnd(33)} ${'5000'.padStart(5)}   ${once.median.toFixed(2).padStart(9)}   ${once.worst
      .toFixed(2)
      .padStart(8)}   ${(twice.median / once.median).toFixed(2).padStart(6)}`,
  );
}
