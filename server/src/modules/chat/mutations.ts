import type SQLite from 'better-sqlite3';
import { REALTIME_ERRORS, type MutationFrame } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { markMessagesRead, setReaction } from './mutations-receipts';
import { ConfessionRefusal } from '../confessions/errors';
import { applyConfessionMutation } from '../confessions/mutations';
import { applyNotificationMutation } from '../notifications/mutations';
import { ChatRefusal, storeDirectMessage, storeGroupMessage } from './writes';

export type MutationOutcome = { ok: true } | { ok: false; error: string; context: string; groupId?: string };

function prepare(sqlite: SQLite.Database) {
  return {
    device: sqlite.prepare<[string], { user_id: string; last_mid: number }>(
      'SELECT user_id, last_mid FROM device_mutations WHERE device_id = ?',
    ),
    saveDevice: sqlite.prepare<[string, string, number, number]>(
      `INSERT INTO device_mutations (device_id, user_id, last_mid, updated_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (device_id) DO UPDATE SET last_mid = excluded.last_mid, updated_ms = excluded.updated_ms`,
    ),
    reject: sqlite.prepare<[string, number], { error: string; context: string }>(
      'SELECT error, context FROM mutation_rejects WHERE device_id = ? AND mid = ?',
    ),
    saveReject: sqlite.prepare<[string, number, string, string, number]>(
      'INSERT OR REPLACE INTO mutation_rejects (device_id, mid, error, context, created_ms) VALUES (?, ?, ?, ?, ?)',
    ),
  };
}

const statements = new WeakMap<SQLite.Database, ReturnType<typeof prepare>>();
function stmts(sqlite: SQLite.Database): ReturnType<typeof prepare> {
  let s = statements.get(sqlite);
  if (!s) statements.set(sqlite, (s = prepare(sqlite)));
  return s;
}

/** The `message_error.context` of a refused mutation: 'group' for group events, else the frame type. */
export function mutationContext(frame: MutationFrame): string {
  return frame.type === 'send_group_message' ? 'group' : frame.type;
}

function run(deps: AppDeps, userId: string, frame: MutationFrame): void {
  switch (frame.type) {
    case 'send_message':
      storeDirectMessage(deps, userId, {
        id: frame.id,
        to: frame.to,
        content: frame.content,
        replyTo: frame.replyTo,
      });
      return;
    case 'send_group_message':
      storeGroupMessage(deps, userId, { id: frame.id, groupId: frame.groupId, content: frame.content });
      return;
    case 'mark_messages_as_read':
      markMessagesRead(deps, userId, frame.chatPartnerId, frame.messageIds);
      return;
    case 'chat-reaction':
      setReaction(deps, userId, frame);
      return;
    case 'confession_react':
    case 'confession_comment':
    case 'confession_post':
      applyConfessionMutation(deps, userId, frame);
      return;
    case 'mark_notification_read':
      applyNotificationMutation(deps, userId, frame);
      return;
  }
}

/**
 * Applies a mutation exactly once per (deviceId, mid): the write, the device's last mid and any refusal
 * are one transaction, so a resend after a lost ack is answered again without writing twice.
 * Refusals are thrown by the writes before they write anything, so the transaction can still commit them.
 */
export function applyMutation(deps: AppDeps, userId: string, frame: MutationFrame): MutationOutcome {
  const s = stmts(deps.sqlite);
  const context = mutationContext(frame);
  const groupId = frame.type === 'send_group_message' ? { groupId: frame.groupId } : {};
  return deps.realtime.commit((): MutationOutcome => {
    const device = s.device.get(frame.deviceId);
    // A device id belongs to the user who first used it.
    if (device && device.user_id !== userId)
      return { ok: false, error: REALTIME_ERRORS.badFrame, context, ...groupId };
    if (device && frame.mid <= device.last_mid) {
      const refused = s.reject.get(frame.deviceId, frame.mid);
      return refused ? { ok: false, ...refused, ...groupId } : { ok: true };
    }
    let outcome: MutationOutcome = { ok: true };
    try {
      run(deps, userId, frame);
    } catch (error) {
      if (!(error instanceof ChatRefusal) && !(error instanceof ConfessionRefusal)) throw error;
      outcome = { ok: false, error: error.message, context, ...groupId };
      s.saveReject.run(frame.deviceId, frame.mid, error.message, context, deps.now());
    }
    s.saveDevice.run(frame.deviceId, userId, frame.mid, deps.now());
    return outcome;
  });
}
