import { z } from 'zod';
import {
  callAnsweredFrameSchema,
  callEndedFrameSchema,
  callLogStatusSchema,
  callRejectedFrameSchema,
  callTypeSchema,
  type CallServerFrame,
} from '@campus/protocol';
import { parseStored, sessionRefSchema, type Handover } from '../../realtime/handover';
import type { CallOutcome } from './log';
import type { CallSide, LiveCall } from './registry';

/**
 * A call as the coordinator keeps it in Redis for the next one (coordinator.ts, `Handover`). Read back
 * strictly: a record that does not parse, or whose parts contradict each other, is dropped, never used.
 */
const ms = z.number().int().min(0).max(8.64e15);
const userId = z.string().min(1).max(64);
const awaySchema = z.strictObject({ since: ms, until: ms });

const storedCallSchema = z
  .strictObject({
    id: z.uuid(),
    logId: z.uuid(),
    callerId: userId,
    calleeId: userId,
    callType: callTypeSchema,
    startedAt: ms,
    calleeHidden: z.boolean(),
    rang: z.boolean(),
    state: z.enum(['ringing', 'active']),
    ringEndsAt: ms,
    answeredAt: ms.optional(),
    caller: sessionRefSchema.nullable(),
    callee: sessionRefSchema.nullable(),
    away: z.strictObject({ caller: awaySchema.optional(), callee: awaySchema.optional() }),
    // The callee's answer, for the caller's `call:resume` (stored once, as it is answered).
    answered: callAnsweredFrameSchema.optional(),
  })
  .refine((c) => c.callerId !== c.calleeId)
  .refine((c) =>
    c.state === 'active'
      ? c.answeredAt !== undefined && c.rang && !c.calleeHidden
      : c.callee === null && !c.away.callee && !c.answered,
  )
  .refine((c) => !c.answered || (c.answered.callId === c.id && c.answered.from === c.calleeId));
type StoredCall = z.infer<typeof storedCallSchema>;

const storedOutcomeSchema = z.strictObject({
  logId: z.uuid(),
  callerId: userId,
  calleeId: userId,
  callType: callTypeSchema,
  startedAt: ms,
  status: callLogStatusSchema,
  duration: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3600),
  calleeHidden: z.boolean(),
});

const SIDES: readonly CallSide[] = ['caller', 'callee'];

export function toStored(call: LiveCall, handover: Handover): StoredCall {
  const ref = (side: CallSide) => {
    const session = call[side];
    return session ? handover.ref(session) : null;
  };
  return {
    id: call.id,
    logId: call.logId,
    callerId: call.callerId,
    calleeId: call.calleeId,
    callType: call.callType,
    startedAt: call.startedAt,
    calleeHidden: call.calleeHidden,
    rang: call.rang,
    state: call.state,
    ringEndsAt: call.ringEndsAt,
    answeredAt: call.answeredAt,
    caller: ref('caller'),
    callee: ref('callee'),
    away: { ...call.away },
    answered: call.answered,
  };
}

/**
 * A stored call as a live one, its connections found again. A side that held a connection which is gone
 * (this node's, closed; or a node that stopped with it) is away from now on, for the grace period: it may
 * come back with `call:resume` (`moved` says the record needs writing again).
 */
export function fromStored(
  raw: string,
  handover: Handover,
  now: number,
  graceMs: number,
): { call: LiveCall; moved: boolean } | undefined {
  const stored = parseStored(storedCallSchema, raw);
  if (!stored) return undefined;
  const { caller, callee, away, ...rest } = stored;
  const call: LiveCall = { ...rest, caller: undefined, callee: undefined, away: { ...away } };
  let moved = false;
  for (const side of SIDES) {
    const ref = side === 'caller' ? caller : callee;
    const userId = side === 'caller' ? call.callerId : call.calleeId;
    call[side] = ref ? handover.session(ref, userId) : undefined;
    // Only a side that holds the call can be away: the caller, and the callee once it answered.
    const holds = side === 'caller' || call.state === 'active';
    if (holds && !call[side] && !call.away[side]) {
      call.away[side] = { since: now, until: now + graceMs };
      moved = true;
    }
  }
  return { call, moved };
}

export function outcomeOf(raw: string): CallOutcome | undefined {
  return parseStored(storedOutcomeSchema, raw);
}

/**
 * A call ended lately (signalling.ts endedCalls): its caller and last word, for a retry of its offer, and
 * its callee when the call reached them (not hidden), for an answer that comes too late.
 */
export interface EndedCall {
  callerId: string;
  calleeId?: string;
  told: CallServerFrame;
  until: number;
}

const endedCallSchema = z
  .strictObject({
    callId: z.uuid(),
    callerId: userId,
    // Absent from a record written before it was kept: a late answer then gets no reply, as it did.
    calleeId: userId.optional(),
    told: z.union([callEndedFrameSchema.strict(), callRejectedFrameSchema.strict()]),
    until: ms,
  })
  .refine((e) => e.told.callId === e.callId);

export function toStoredEnded(callId: string, ended: EndedCall): string {
  return JSON.stringify({ callId, ...ended });
}

export function endedOf(raw: string): (EndedCall & { callId: string }) | undefined {
  return parseStored(endedCallSchema, raw);
}
