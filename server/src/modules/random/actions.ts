import {
  FRIEND_MSG,
  FRIEND_SERVER_MSG,
  REPORT_MSG,
  type RandomActionFrame,
  type ReportEvidence,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { Refusal } from '../../lib/refusal';
import type { ParticipationCheck, Session } from '../../realtime/registry';
import type { Tx } from '../../realtime/transaction';
import { sendFriendRequest, takeBlockRate, takeFriendRequestRate } from '../friends';
import { insertRandomBlockSql, randomBlockedSql } from './repo';
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
 * A room's Block: the partner is never named to the blocker (the friends' block would send their card and
 * list them), so it is a random block: no change, no list; the matchmaker never pairs the two again and the
 * room's Add Friend stops. The friends' hourly block budget still applies.
 */
async function randomBlock(tx: Tx, deps: AppDeps, blockerId: string, blockedId: string): Promise<void> {
  takeBlockRate(deps, blockerId);
  await tx.run(insertRandomBlockSql, blockerId, blockedId, new Date(tx.now).toISOString());
}

/**
 * Add Friend, Block or Report the partner of a room (live or lately ended): the friends module's request
 * (its rules and texts, and the budget the REST route charges), a random block (above), the reports
 * module's report with the text room's last messages as evidence, and the random block that goes with it
 * unless unticked. A refusal is answered with its text, never thrown.
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
          // Across a random block nothing is sent, and the answer is the one a request gets: the blocked
          // side must not learn of the block, and the blocker must not be asked.
          if (await tx.first(randomBlockedSql, userId, partnerId, partnerId, userId))
            return { message: FRIEND_MSG.sent };
          try {
            return await sendFriendRequest(tx, deps, userId, partnerId);
          } catch (err) {
            // Nothing was written yet. REST's "already friends" would tell the student who the stranger is.
            if (err instanceof Refusal && err.message === FRIEND_SERVER_MSG.alreadyFriends)
              return { message: FRIEND_MSG.sent };
            throw err;
          }
        });
        // Nor may "already sent": it names someone the student asked before. Either way nothing more is due.
        const message = sent.message === FRIEND_SERVER_MSG.alreadySent ? FRIEND_MSG.sent : sent.message;
        return { ok: true, message, separated: false };
      }
      case 'block':
        await commit((tx) => randomBlock(tx, deps, userId, partnerId));
        return { ok: true, message: FRIEND_SERVER_MSG.blocked, separated: true };
      case 'report': {
        const evidence = evidenceOf(room, userId);
        await commit(async (tx) => {
          await reportPartner(tx, deps, {
            reporterId: userId,
            reportedId: partnerId,
            context: { kind: 'random_room', roomId: room.id },
            // The frame's schema requires a reason for a report.
            reason: frame.reason ?? 'other',
            note: frame.note ?? null,
            ...(evidence ? { evidence } : {}),
            // The report's block is a random block, as the room's Block is.
            block: false,
          });
          if (frame.block) await randomBlock(tx, deps, userId, partnerId);
        });
        return { ok: true, message: REPORT_MSG.sent, separated: frame.block };
      }
    }
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, message: err.message, separated: false };
    throw err;
  }
}
