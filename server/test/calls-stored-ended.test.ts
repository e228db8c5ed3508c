import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endedOf, toStoredEnded } from '../src/modules/calls/stored';

/**
 * An ended call's record in Redis (`e:<callId>`, modules/calls/handover.ts) is read back strictly, as every
 * stored call is: what a retry of the offer would be sent must be a caller's ending of that very call.
 */
describe('stored ended calls', () => {
  const callId = randomUUID();
  const until = Date.now() + 60_000;

  it('round-trips a reject and an end', () => {
    for (const told of [
      { type: 'call:reject', callId, from: 'u-bob' } as const,
      { type: 'call:end', callId, reason: 'no_answer', error: 'No answer.' } as const,
    ]) {
      expect(endedOf(toStoredEnded(callId, { callerId: 'u-ann', told, until }))).toEqual({
        callId,
        callerId: 'u-ann',
        told,
        until,
      });
    }
  });

  it('keeps the callee, for an answer that comes after the end; a record without one still reads', () => {
    const told = { type: 'call:end', callId, reason: 'ended', error: 'Call ended.' } as const;
    const ended = { callerId: 'u-ann', calleeId: 'u-bob', told, until };
    expect(endedOf(toStoredEnded(callId, ended))).toEqual({ callId, ...ended });
    expect(endedOf(toStoredEnded(callId, { callerId: 'u-ann', told, until }))?.calleeId).toBeUndefined();
  });

  it('refuses a record that is not a caller’s ending of that call', () => {
    const raw = (told: unknown, id = callId) =>
      JSON.stringify({ callId: id, callerId: 'u-ann', told, until });
    const reject = { type: 'call:reject', callId, from: 'u-bob' };
    expect(endedOf(raw(reject, randomUUID()))).toBeUndefined();
    expect(endedOf(raw({ ...reject, extra: true }))).toBeUndefined();
    expect(
      endedOf(raw({ type: 'call:answer', callId, from: 'u-bob', signal: { type: 'answer', sdp: 'v=0' } })),
    ).toBeUndefined();
    expect(endedOf(raw({ type: 'call:placed', callId }))).toBeUndefined();
    expect(endedOf('{"callId":')).toBeUndefined();
  });
});
