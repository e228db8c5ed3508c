import { whenWritten, type Handover } from '../../realtime/handover';
import type { Logger } from '../../lib/logger';
import type { CallOutcome } from './log';
import type { LiveCall } from './registry';
import { endedOf, fromStored, outcomeOf, toStored, toStoredEnded, type EndedCall } from './stored';

/**
 * The calls' one hash in Redis (coordinator.ts): `c:<callId>` per live call, `l:<logId>` per log in flight,
 * `e:<callId>` per call ended lately (for a retry of its offer; dropped as it expires).
 */
export const CALL_STATE = 'state';

/**
 * The calls' state in Redis while this node coordinates them (issue 14), for the node after it: written on
 * the transitions only (placed, answered, a side away or back, hidden, ended), never for a signalling frame;
 * each step's writes go out together (one round trip). An ended call's log is kept there until it is in
 * the database, so a coordinator that dies in between leaves it for the next one to write (the log's id
 * makes that write a no-op if the row got in after all).
 */
export class StoredCalls {
  private term: Handover | undefined;

  constructor(private readonly log: Logger) {}

  /** This node coordinates from now on: writes go through `term`. */
  begin(term: Handover): void {
    this.term = term;
  }

  /** It no longer does: nothing is written any more (a stale write is refused by Redis too). */
  end(): void {
    this.term = undefined;
  }

  current(term: Handover): boolean {
    return this.term === term;
  }

  saved(call: LiveCall): void {
    const term = this.term;
    term?.set(CALL_STATE, `c:${call.id}`, JSON.stringify(toStored(call, term)));
  }

  /**
   * Runs `fn` once what was stored so far is in Redis (at once without a term: one node, no Redis): what a
   * side is told then survives a crash of this node.
   */
  afterWritten(fn: () => void): void {
    whenWritten(this.term, fn);
  }

  forgot(call: LiveCall): void {
    this.term?.del(CALL_STATE, `c:${call.id}`);
  }

  /** A call ended: who called and what they were told, until `until` (a retry of the offer gets it). */
  ended(callId: string, ended: EndedCall): void {
    this.term?.set(CALL_STATE, `e:${callId}`, toStoredEnded(callId, ended));
  }

  expired(callId: string): void {
    this.term?.del(CALL_STATE, `e:${callId}`);
  }

  /**
   * A log about to be written, kept (in the same round trip as the end of its call) unless `kept` already;
   * the answer, called once it is in the database, drops it, through the term it was written in (once that
   * term is over, the next coordinator loads it, writes it again, a no-op, and drops it).
   */
  logging(outcome: CallOutcome, kept = false): () => void {
    const term = this.term;
    const field = `l:${outcome.logId}`;
    if (!kept) term?.set(CALL_STATE, field, JSON.stringify(outcome));
    return () => term?.del(CALL_STATE, field);
  }

  /**
   * What the previous coordinator left: its live calls (their connections found again; `moved`: changed
   * as they loaded, to be written back) and the logs it did not get to write. What does not parse is
   * dropped, and said.
   */
  async load(
    term: Handover,
    now: number,
    graceMs: number,
  ): Promise<{
    calls: { call: LiveCall; moved: boolean }[];
    logs: CallOutcome[];
    ended: (EndedCall & { callId: string })[];
  }> {
    const fields = await term.read(CALL_STATE);
    const calls: { call: LiveCall; moved: boolean }[] = [];
    const logs: CallOutcome[] = [];
    const ended: (EndedCall & { callId: string })[] = [];
    let dropped = 0;
    for (const [field, raw] of Object.entries(fields)) {
      const call = field.startsWith('c:') ? fromStored(raw, term, now, graceMs) : undefined;
      const outcome = field.startsWith('l:') ? outcomeOf(raw) : undefined;
      const gone = field.startsWith('e:') ? endedOf(raw) : undefined;
      if (call && field === `c:${call.call.id}`) calls.push(call);
      else if (outcome && field === `l:${outcome.logId}`) logs.push(outcome);
      else if (gone && field === `e:${gone.callId}`) {
        if (gone.until > now) ended.push(gone);
        else term.del(CALL_STATE, field);
      } else {
        dropped++;
        term.del(CALL_STATE, field);
      }
    }
    if (dropped) this.log.warn({ dropped }, 'calls: stored records that did not parse were dropped');
    return { calls, logs, ended };
  }
}
