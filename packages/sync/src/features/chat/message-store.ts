import type { DirectMessage, GroupMessage } from '@campus/protocol';
import type { CampusDatabase, LocalDirectMessage, LocalGroupMessage } from '../../database';
import { directPartner } from './conversations';
import { laterStatus } from './message-status';

export function toLocalDirect(message: DirectMessage, selfId: string): LocalDirectMessage {
  return { ...message, peerId: directPartner(message, selfId).id };
}

/** Merges a server copy over a local one: the server's fields, but never an earlier status. */
function mergeDirect(
  local: LocalDirectMessage | undefined,
  incoming: LocalDirectMessage,
): LocalDirectMessage {
  if (!local) return incoming;
  const { error: _error, ...server } = incoming;
  return { ...server, status: laterStatus(local.status, incoming.status) ?? incoming.status };
}

function mergeGroup(local: LocalGroupMessage | undefined, incoming: GroupMessage): LocalGroupMessage {
  const stored: LocalGroupMessage = { ...incoming, status: laterStatus(incoming.status, 'sent') };
  if (!local) return stored;
  return { ...stored, status: laterStatus(local.status, stored.status) };
}

/** Stores server messages (a change, a snapshot or a history page). Returns the ids that were new here. */
export async function storeDirectMessages(
  db: CampusDatabase,
  selfId: string,
  messages: readonly DirectMessage[],
): Promise<Set<string>> {
  const locals = await db.messages.bulkGet(messages.map((m) => m.id));
  const fresh = new Set<string>();
  const rows = messages.map((message, i) => {
    const local = locals[i];
    if (!local) fresh.add(message.id);
    return mergeDirect(local, toLocalDirect(message, selfId));
  });
  await db.messages.bulkPut(rows);
  return fresh;
}

export async function storeGroupMessages(
  db: CampusDatabase,
  messages: readonly GroupMessage[],
): Promise<Set<string>> {
  const locals = await db.groupMessages.bulkGet(messages.map((m) => m.id));
  const fresh = new Set<string>();
  const rows = messages.map((message, i) => {
    const local = locals[i];
    if (!local) fresh.add(message.id);
    return mergeGroup(local, message);
  });
  await db.groupMessages.bulkPut(rows);
  return fresh;
}

/**
 * History pages through REST may be older than what sync already applied here (a reaction or status
 * change after the page was read): they only add the messages this device does not have yet.
 */
export async function insertMissingDirect(
  db: CampusDatabase,
  selfId: string,
  messages: readonly DirectMessage[],
): Promise<void> {
  const locals = await db.messages.bulkGet(messages.map((m) => m.id));
  const missing = messages.filter((_, i) => !locals[i]).map((m) => toLocalDirect(m, selfId));
  if (missing.length) await db.messages.bulkAdd(missing);
}

export async function insertMissingGroup(
  db: CampusDatabase,
  messages: readonly GroupMessage[],
): Promise<void> {
  const locals = await db.groupMessages.bulkGet(messages.map((m) => m.id));
  const missing = messages.filter((_, i) => !locals[i]).map((m) => mergeGroup(undefined, m));
  if (missing.length) await db.groupMessages.bulkAdd(missing);
}

/** A stored own message settles the queued send with the same id, even if its ack was lost. */
export async function settleOwnSend(db: CampusDatabase, messageId: string): Promise<void> {
  await db.outbox.where('frame.id').equals(messageId).delete();
}
