/**
 * A group's last activity, read from its messages rather than kept on its row (migration 0022): SQL over a
 * `groups` row aliased `g`, the same text in every query that orders groups or marks them read, so the Talk
 * home list, the snapshot and the read mark cannot disagree. Each is one seek on
 * group_messages_group_seq_idx (group_id, seq), backwards, on SQLite and PostgreSQL alike.
 */

/** The id of the group's newest message, or NULL before its first. */
export const NEWEST_GROUP_MESSAGE_ID =
  '(SELECT nm.id FROM group_messages nm WHERE nm.group_id = g.id ORDER BY nm.seq DESC LIMIT 1)';

/** The seq the group sorts by: its newest message's, else its creation's. */
export const GROUP_ACTIVITY_SEQ =
  'coalesce((SELECT max(am.seq) FROM group_messages am WHERE am.group_id = g.id), g.created_seq)';
