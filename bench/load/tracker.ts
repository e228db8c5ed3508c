import { randomBytes } from 'node:crypto';
import { GROUP_SIZE, nodeOfClient } from '../shared/population';
import { percentiles, SampleBuffer } from '../shared/stats';

/** Deliveries to the other 19 members along one route: on the sender's node, or on another. */
export interface RouteSummary {
  expected: number;
  received: number;
  lost: number;
  /** NaN (null in the JSON) when nothing arrived. */
  ms: { p50: number | undefined; p99: number | undefined; p999: number | undefined; max: number | undefined };
}

/**
 * Bookkeeping of every planned message in typed arrays, indexed by message number. The message's UUID
 * carries its number in its last 12 hex digits, and its mutation id is number + 1, so an ack or a receive
 * finds its message without a map lookup. With several nodes (population.ts's nodeOfClient), every
 * delivery is also counted by route: same-node (the node that committed the message delivers it) or
 * cross-node (the other node hears of the commit through Redis).
 */
export class MessageTracker {
  private readonly prefix: string;
  readonly scheduledAt: Float64Array;
  readonly sender: Int32Array;
  private readonly phase: Int8Array;
  private readonly acked: Uint8Array;
  /** One bit per group member (member number = user index % 20) that received the message. */
  private readonly receivedBy: Uint32Array;
  /** The slowest delivery of each message to another member (ms), for the timeline (BENCH_TIMELINE). */
  readonly slowest: Float32Array;
  /** Each message's send lag and ack latency (ms from its planned time), for the timeline. */
  readonly lag: Float32Array;
  readonly ackMs: Float32Array;
  private readonly phases: PhaseCounters[] = [];

  constructor(
    capacity: number,
    private readonly nodeCount = 1,
  ) {
    const hex = randomBytes(10).toString('hex');
    this.prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-8${hex.slice(15, 18)}-`;
    this.scheduledAt = new Float64Array(capacity);
    this.sender = new Int32Array(capacity);
    this.phase = new Int8Array(capacity).fill(-1);
    this.acked = new Uint8Array(capacity);
    this.receivedBy = new Uint32Array(capacity);
    this.slowest = new Float32Array(capacity);
    this.lag = new Float32Array(capacity);
    this.ackMs = new Float32Array(capacity);
  }

  startPhase(): number {
    this.phases.push(new PhaseCounters());
    return this.phases.length - 1;
  }

  plan(messageNo: number, phase: number, scheduledAt: number, sender: number): void {
    this.scheduledAt[messageNo] = scheduledAt;
    this.sender[messageNo] = sender;
    this.phase[messageNo] = phase;
  }

  messageId(messageNo: number): string {
    return this.prefix + messageNo.toString(16).padStart(12, '0');
  }

  sent(messageNo: number, now: number): void {
    const counters = this.counters(messageNo)!;
    counters.sent++;
    counters.expectedSameNode += this.sameNodePeers(this.sender[messageNo]!);
    this.lag[messageNo] = now - this.scheduledAt[messageNo]!;
    counters.sendLag.push(this.lag[messageNo]!);
  }

  ack(mid: number, now: number): void {
    const messageNo = mid - 1;
    const counters = this.counters(messageNo);
    if (!counters) return;
    if (this.acked[messageNo]) counters.duplicateAcks++;
    else {
      this.acked[messageNo] = 1;
      counters.acks++;
      this.ackMs[messageNo] = now - this.scheduledAt[messageNo]!;
      counters.ackLatency.push(this.ackMs[messageNo]!);
    }
  }

  receive(client: number, messageId: string, now: number): void {
    if (!messageId.startsWith(this.prefix)) return;
    const messageNo = parseInt(messageId.slice(this.prefix.length), 16);
    const counters = this.counters(messageNo);
    if (!counters) return;
    const sender = this.sender[messageNo]!;
    if (Math.floor(sender / GROUP_SIZE) !== Math.floor(client / GROUP_SIZE)) {
      counters.misrouted++;
      return;
    }
    const bit = 1 << (client % GROUP_SIZE);
    if (this.receivedBy[messageNo]! & bit) {
      counters.duplicates++;
      return;
    }
    this.receivedBy[messageNo]! |= bit;
    counters.deliveries++;
    if (client === sender) {
      counters.echoes++;
      return;
    }
    const latency = now - this.scheduledAt[messageNo]!;
    if (latency > this.slowest[messageNo]!) this.slowest[messageNo] = latency;
    counters.receiveLatency.push(latency);
    if (this.sameNode(client, sender)) counters.sameNodeLatency.push(latency);
    else counters.crossNodeLatency.push(latency);
  }

  /** Deliveries to the other members and acks of the phase not (yet) seen. */
  outstanding(phase: number): number {
    const c = this.phases[phase]!;
    return c.sent * (GROUP_SIZE - 1) - (c.deliveries - c.echoes) + (c.sent - c.acks);
  }

  /** Counts of one phase as they stand now (call after the drain). */
  summary(phase: number) {
    const c = this.phases[phase]!;
    const [sendLagP50, sendLagP99] = percentiles(c.sendLag.values(), [50, 99]);
    const [ackP50, ackP99] = percentiles(c.ackLatency.values(), [50, 99]);
    const [receiveP50, receiveP99, receiveP999, receiveMax] = percentiles(
      c.receiveLatency.values(),
      [50, 99, 99.9, 100],
    );
    const expectedOthers = c.sent * (GROUP_SIZE - 1);
    const receivedOthers = c.deliveries - c.echoes;
    return {
      sent: c.sent,
      acks: c.acks,
      missingAcks: c.sent - c.acks,
      duplicateAcks: c.duplicateAcks,
      /** Deliveries to the other 19 members that should have arrived. */
      expected: expectedOthers,
      received: receivedOthers,
      lost: expectedOthers - receivedOthers,
      duplicates: c.duplicates,
      misrouted: c.misrouted,
      /** The sender's own copy, when the server sends one (all three do: the sender is a member). */
      echoes: c.echoes,
      deliveries: c.deliveries,
      ms: { sendLagP50, sendLagP99, ackP50, ackP99, receiveP50, receiveP99, receiveP999, receiveMax },
      ...(this.nodeCount > 1
        ? {
            routes: {
              sameNode: route(c.expectedSameNode, c.sameNodeLatency),
              crossNode: route(expectedOthers - c.expectedSameNode, c.crossNodeLatency),
            },
          }
        : {}),
    };
  }

  private sameNode(a: number, b: number): boolean {
    return nodeOfClient(a, this.nodeCount) === nodeOfClient(b, this.nodeCount);
  }

  /** How many of the sender's 19 fellow members are on its node (9 of them with two nodes). */
  private sameNodePeers(sender: number): number {
    const first = sender - (sender % GROUP_SIZE);
    let peers = 0;
    for (let member = first; member < first + GROUP_SIZE; member++)
      if (member !== sender && this.sameNode(member, sender)) peers++;
    return peers;
  }

  private counters(messageNo: number): PhaseCounters | undefined {
    return this.phases[this.phase[messageNo] ?? -1];
  }
}

/** Latency samples are one per first delivery, so a route's lost count is expected minus samples. */
function route(expected: number, latency: SampleBuffer): RouteSummary {
  const [p50, p99, p999, max] = percentiles(latency.values(), [50, 99, 99.9, 100]);
  const received = latency.length;
  return { expected, received, lost: expected - received, ms: { p50, p99, p999, max } };
}

class PhaseCounters {
  sent = 0;
  /** Deliveries to fellow members on the sender's node that the sent messages call for. */
  expectedSameNode = 0;
  acks = 0;
  duplicateAcks = 0;
  deliveries = 0;
  echoes = 0;
  duplicates = 0;
  misrouted = 0;
  readonly sendLag = new SampleBuffer();
  readonly ackLatency = new SampleBuffer();
  readonly receiveLatency = new SampleBuffer();
  readonly sameNodeLatency = new SampleBuffer();
  readonly crossNodeLatency = new SampleBuffer();
}

export type PhaseSummary = ReturnType<MessageTracker['summary']>;
