import { FRIEND_SERVER_MSG, REPORT_MSG, type RandomActionFrame, type ReportEvidence } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { Refusal } from '../../lib/refusal';
import type { ParticipationCheck, Session } from '../../realtime/registry';
import { blockUser, sendFriendRequest, takeBlockRate, takeFriendRequestRate } from '../friends';
import type { Room } from './rooms';
import { reportPartner } from './safety';

export interface ActionOutcome {
  ok: boolean;
  /** The text to show: the friends' and reports' own answers and refusals. */
  message: string;
  /** A block now stands between the two: a live room between them ends. */
  separated: boolean;
}

/** A text room's kept messages as the report stores them: whose, from the reporter's side. */
function evidenceOf(room: Room<Session>, reporterId: string): ReportEvidence | undefined {
  if (room.kind !== 'chat') return undefined;
  return {
    messages: room.messages.map((m) => ({
      from: m.fromUserId === reporterId ? 'reporter' : 'reported',
      text: m.text,
      at: m.at,
    })),
  };
}

/**
 * Add Friend, Block or Report the partner of a room (live or lately ended), through the same writes REST
 * uses: the friends module's request (its rules and texts, and the budget the REST route charges) and block
 * (its budget too), the reports module's report with the text room's last messages as evidence, and the
 * block that goes with it unless unticked. A refusal is answered with its text, never thrown.
 */
export async function runAction(
  deps: AppDeps,
  participation: ParticipationCheck,
  room: Room<Session>,
  userId: string,
  partnerId: string,
  frame: RandomActionFrame,
): Promise<ActionOutcome> {
  const commit = deps.transactor.commit.bind(deps.transactor);
  try {
    switch (frame.action) {
      case 'add-friend': {
        const sent = await commit(async (tx) => {
          // Sending a request takes part (the access policy), as on REST.
          await participation(tx, userId);
          takeFriendRequestRate(deps, userId);
          return sendFriendRequest(tx, deps, userId, partnerId);
        });
        return { ok: true, message: sent.message, separated: false };
      }
      case 'block':
        await commit(async (tx) => {
          takeBlockRate(deps, userId);
          await blockUser(tx, deps, userId, partnerId);
        });
        return { ok: true, message: FRIEND_SERVER_MSG.blocked, separated: true };
      case 'report': {
        const evidence = evidenceOf(room, userId);
        await commit((tx) =>
          reportPartner(tx, deps, {
            reporterId: userId,
            reportedId: partnerId,
            context: { kind: 'random_room', roomId: room.id },
            // The frame's schema requires a reason for a report.
            reason: frame.reason ?? 'other',
            note: frame.note ?? null,
            ...(evidence ? { evidence } : {}),
            block: frame.block,
          }),
        );
        return { ok: true, message: REPORT_MSG.sent, separated: frame.block };
      }
    }
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, message: err.message, separated: false };
    throw err;
  }
}
