import type { DirectMessagesTable, GroupMessagesTable } from '../../lib/db/schema';
import {
  conversationSnippet,
  type ConversationItem,
  type DirectMessage,
  type Group,
  type GroupMessage,
  type Reaction,
  type UserRef,
} from '@campus/protocol';
import type { UserRefRow } from '../users';

/** Chat's row types and their one mapper each (users map in modules/users). */

/**
 * The STABLE path of a stored file. It is what the change log and REST carry; clients trade it for a
 * short-lived signed URL through POST /api/files/sign.
 */
export function fileUrlPath(key: string | null): string | null {
  return key === null ? null : `/files/${key}`;
}

/** The columns a message is built from (the table's own types). */
export type DirectMessageRow = Pick<
  DirectMessagesTable,
  'id' | 'content' | 'created_at' | 'status' | 'reply_to' | 'attachment_key' | 'attachment_type' | 'seq'
>;

export function toDirectMessage(
  row: DirectMessageRow,
  from: UserRef,
  to: UserRef,
  reactions: Reaction[],
): DirectMessage {
  return {
    id: row.id,
    from,
    to,
    content: row.content,
    timestamp: row.created_at,
    status: row.status,
    attachmentUrl: fileUrlPath(row.attachment_key),
    attachmentType: row.attachment_type,
    replyTo: row.reply_to,
    reactions,
    seq: row.seq,
  };
}

export type GroupMessageRow = Pick<
  GroupMessagesTable,
  'id' | 'group_id' | 'content' | 'created_at' | 'attachment_key' | 'attachment_type' | 'seq'
>;

export function toGroupMessage(row: GroupMessageRow, from: UserRef): GroupMessage {
  return {
    id: row.id,
    from,
    group: row.group_id,
    content: row.content,
    timestamp: row.created_at,
    attachmentUrl: fileUrlPath(row.attachment_key),
    attachmentType: row.attachment_type,
    seq: row.seq,
    status: 'sent',
  };
}

export interface GroupRow {
  id: string;
  name: string;
  created_by: string;
  created_at: string;
  avatar_url: string | null;
}

export function toGroup(row: GroupRow, members: UserRef[]): Group {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    createdBy: row.created_by,
    members,
    avatarUrl: row.avatar_url,
  };
}

export interface DirectConversationRow {
  peer: UserRefRow & { last_active_at: string | null };
  unread_count: number;
  last_content: string | null;
  last_created_at: string | null;
}

export function toDirectConversation(row: DirectConversationRow): ConversationItem {
  return {
    id: row.peer.id,
    name: `${row.peer.first_name} ${row.peer.last_name}`.trim(),
    avatarUrl: row.peer.profile_picture_url,
    lastMessageSnippet: conversationSnippet(row.last_content ?? ''),
    lastMessageTimestamp: row.last_created_at,
    unreadCount: Math.max(0, row.unread_count),
    isGroup: false,
    email: null,
    lastActiveAt: row.peer.last_active_at,
  };
}

export interface GroupConversationRow {
  group: GroupRow;
  unread: number;
  last_content: string | null;
  last_created_at: string | null;
}

/** A group without messages yet shows its creation time, so a new group sorts where it was made. */
export function toGroupConversation(row: GroupConversationRow): ConversationItem {
  return {
    id: row.group.id,
    name: row.group.name,
    avatarUrl: row.group.avatar_url,
    lastMessageSnippet: conversationSnippet(row.last_content ?? ''),
    lastMessageTimestamp: row.last_created_at ?? row.group.created_at,
    unreadCount: Math.max(0, row.unread),
    isGroup: true,
    email: null,
    lastActiveAt: null,
  };
}
