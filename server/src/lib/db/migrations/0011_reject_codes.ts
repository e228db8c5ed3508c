import { sql, type Kysely } from 'kysely';
import { ddl } from './dialect';

/**
 * A refused mutation is remembered with its reason code too (`message_error.code`), so a resend of the same
 * (deviceId, mid) is answered with the same code as the first time. Rows stored before have only the text:
 * the texts of the catalogue as it stood are mapped back to their codes, anything else becomes 'invalid'.
 * Copied here on purpose: a migration must not change when the catalogue does.
 */
const KNOWN_TEXTS: readonly (readonly [string, string])[] = [
  ['Invalid message format.', 'badFrame'],
  ['You are not a member of this group.', 'notGroupMember'],
  ['That user does not exist.', 'unknownUser'],
  ['You cannot message yourself.', 'selfMessage'],
  ['That message does not exist.', 'unknownMessage'],
  ['Message cannot be empty.', 'emptyMessage'],
  ['Message is too long.', 'messageTooLong'],
  ['You are sending messages too fast. Please slow down.', 'rateLimited'],
  ['Something went wrong. Please try again.', 'internal'],
  ["You're starting too many conversations. Try again later.", 'tooManyConversations'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(db, `ALTER TABLE mutation_rejects ADD COLUMN code TEXT NOT NULL DEFAULT 'invalid'`);
  for (const [text, code] of KNOWN_TEXTS)
    await sql`UPDATE mutation_rejects SET code = ${code} WHERE error = ${text}`.execute(db);
  // The awaiting-reply refusal names the person, so it is matched by its shape.
  await sql`UPDATE mutation_rejects SET code = 'awaitingReply'
             WHERE error LIKE 'You can''t send more messages until %'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mutation_rejects DROP COLUMN code`.execute(db);
}
