import type { LoadResult } from '../load/types';
import { TARGETS } from './targets';

const HEADERS = [
  'server',
  'msg/s',
  'ack p50/p99 ms',
  'receive p50/p99 ms',
  'lost',
  'dup',
  'CPU µs/delivery',
  '× plain ws',
  'idle KB/conn',
  'send lag p99 ms',
  'steal %',
  'other load %',
];

// Percentiles of an empty sample are NaN, which JSON stores as null.
const ms = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1);

/** One row per server and rate, with CPU per delivery as a ratio of the plain ws server's at that rate. */
export function resultRows(results: readonly LoadResult[]): string[][] {
  const floor = results.find((r) => r.target === 'plain-ws');
  return results.flatMap((result) =>
    result.phases.map((phase) => {
      const base = floor?.phases.find((p) => p.rate === phase.rate);
      const ratio = base ? (phase.cpuMicrosPerDelivery / base.cpuMicrosPerDelivery).toFixed(2) : '–';
      return [
        TARGETS[result.target].label,
        String(phase.rate),
        `${ms(phase.ms.ackP50)} / ${ms(phase.ms.ackP99)}`,
        `${ms(phase.ms.receiveP50)} / ${ms(phase.ms.receiveP99)}`,
        String(phase.lost + phase.missingAcks > 0 ? `${phase.lost} (+${phase.missingAcks} acks)` : 0),
        String(phase.duplicates + phase.duplicateAcks + phase.misrouted),
        phase.cpuMicrosPerDelivery.toFixed(1),
        ratio,
        result.idleKbPerConnection.toFixed(1),
        ms(phase.ms.sendLagP99),
        phase.stealPercent.all.toFixed(1),
        phase.otherLoadPercent.toFixed(0),
      ];
    }),
  );
}

/** A Markdown table: readable in the terminal and pasted as is into the README. */
export function formatTable(rows: readonly string[][]): string {
  const all = [HEADERS, ...rows];
  const widths = HEADERS.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(HEADERS), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
