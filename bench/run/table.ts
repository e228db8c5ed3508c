import type { LoadResult, PhaseResult } from '../load/types';
import { LABELS } from './targets';

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

/** The second table, for targets of several nodes: what the main table's columns add up over them. */
const NODE_HEADERS = [
  'server',
  'msg/s',
  'same-node receive p50/p99 ms',
  'cross-node receive p50/p99 ms',
  'lost same / cross',
  'drain s',
  'nodes CPU µs/delivery (each)',
  'PostgreSQL µs/delivery',
  'Redis µs/delivery',
  'all µs/delivery',
  'CPU wait ms/s nodes / PostgreSQL',
];

// Percentiles of an empty sample are NaN, which JSON stores as null.
const ms = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1);

/**
 * One row per server and rate, with CPU per delivery as a ratio of the plain ws server's at that rate. For
 * several nodes, CPU and idle memory are all the nodes' together (PostgreSQL and Redis are in nodeRows).
 */
export function resultRows(results: readonly LoadResult[]): string[][] {
  const floor = results.find((r) => r.target === 'plain-ws');
  return results.flatMap((result) =>
    result.phases.map((phase) => {
      const base = floor?.phases.find((p) => p.rate === phase.rate);
      const ratio = base ? (phase.cpuMicrosPerDelivery / base.cpuMicrosPerDelivery).toFixed(2) : '–';
      return [
        LABELS[result.target],
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

/** One row per multi-node server and rate: receive latency by route, and CPU per delivery by process. */
export function nodeRows(results: readonly LoadResult[]): string[][] {
  return results.flatMap((result) =>
    result.phases.flatMap((phase) => {
      const routes = phase.routes;
      if (!routes) return [];
      const perDelivery = (micros: number) => micros / Math.max(1, phase.deliveries);
      const eachNode = (phase.nodeCpuMicros ?? [])
        .map((micros) => perDelivery(micros).toFixed(1))
        .join(' + ');
      return [
        [
          LABELS[result.target],
          String(phase.rate),
          `${ms(routes.sameNode.ms.p50)} / ${ms(routes.sameNode.ms.p99)}`,
          `${ms(routes.crossNode.ms.p50)} / ${ms(routes.crossNode.ms.p99)}`,
          `${routes.sameNode.lost} / ${routes.crossNode.lost}`,
          (phase.drainedMs / 1000).toFixed(1),
          `${phase.cpuMicrosPerDelivery.toFixed(1)} (${eachNode})`,
          phase.postgresCpu?.microsPerDelivery.toFixed(1) ?? '–',
          phase.redisCpu?.microsPerDelivery.toFixed(1) ?? '–',
          allMicrosPerDelivery(phase).toFixed(1),
          `${phase.runQueueWaitMsPerSecond.nodes.toFixed(0)} / ${phase.runQueueWaitMsPerSecond.postgres?.toFixed(0) ?? '–'}`,
        ],
      ];
    }),
  );
}

/** The nodes', PostgreSQL's and Redis's CPU per delivery together. */
function allMicrosPerDelivery(phase: PhaseResult): number {
  return (
    phase.cpuMicrosPerDelivery +
    (phase.postgresCpu?.microsPerDelivery ?? 0) +
    (phase.redisCpu?.microsPerDelivery ?? 0)
  );
}

/** A Markdown table: readable in the terminal and pasted as is into the README. */
/** The summary of BENCH_ROUNDS > 1: per server and rate, each round's ratio to that round's plain ws. */
const ROUND_HEADERS = [
  'server',
  'msg/s',
  'CPU µs/delivery, median (each round)',
  '× plain ws, median (each round)',
  'receive p99 ms, median (each round)',
  'connect ms, median',
];

/**
 * One row per server and rate over alternating rounds (the targets in order, again and again): each round's
 * CPU per delivery is divided by the plain ws server's of the same round, so a minute that was busier for
 * every server cancels out, and the median of those ratios is less at the mercy of one noisy phase.
 */
export function roundRows(rounds: readonly (readonly LoadResult[])[]): string[][] {
  const first = rounds[0] ?? [];
  return first.flatMap((result) =>
    result.phases.map((phase) => {
      const same = rounds.map((round) => ({
        mine: round.find((r) => r.target === result.target)?.phases.find((p) => p.rate === phase.rate),
        floor: round.find((r) => r.target === 'plain-ws')?.phases.find((p) => p.rate === phase.rate),
        connect: round.find((r) => r.target === result.target)?.connectMs,
      }));
      const cpu = same.flatMap(({ mine }) => (mine ? [mine.cpuMicrosPerDelivery] : []));
      const ratios = same.flatMap(({ mine, floor }) =>
        mine && floor ? [mine.cpuMicrosPerDelivery / floor.cpuMicrosPerDelivery] : [],
      );
      const p99 = same.flatMap(({ mine }) => (mine?.ms.receiveP99 != null ? [mine.ms.receiveP99] : []));
      const connect = same.flatMap(({ connect: c }) => (c === undefined ? [] : [c]));
      const listed = (values: number[], digits: number) =>
        values.length
          ? `${median(values).toFixed(digits)} (${values.map((v) => v.toFixed(digits)).join(', ')})`
          : '–';
      return [
        LABELS[result.target],
        String(phase.rate),
        listed(cpu, 1),
        listed(ratios, 2),
        listed(p99, 1),
        connect.length ? median(connect).toFixed(0) : '–',
      ];
    }),
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatRoundTable(rows: readonly string[][]): string {
  return markdown(ROUND_HEADERS, rows);
}

export function formatTable(rows: readonly string[][]): string {
  return markdown(HEADERS, rows);
}

export function formatNodeTable(rows: readonly string[][]): string {
  return markdown(NODE_HEADERS, rows);
}

function markdown(headers: readonly string[], rows: readonly string[][]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
