import type { Selectable } from 'kysely';
import type { DB } from '../../lib/db/database';
import type { OneTimeCodesTable } from '../../lib/db/schema';

export type CodeRow = Selectable<OneTimeCodesTable>;
export type CodePurpose = OneTimeCodesTable['purpose'];

export async function findCode(db: DB, purpose: CodePurpose, email: string): Promise<CodeRow | undefined> {
  return db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Replaces any earlier code for the same purpose and address: only the newest code is ever valid. */
export async function putCode(
  db: DB,
  code: {
    purpose: CodePurpose;
    email: string;
    codeHash: string;
    expiresAt: number;
    sentAt: number;
    payload: string | null;
  },
): Promise<void> {
  await db
    .insertInto('one_time_codes')
    .values({
      purpose: code.purpose,
      email: code.email,
      code_hash: code.codeHash,
      expires_at: code.expiresAt,
      attempts: 0,
      sent_at: code.sentAt,
      payload: code.payload,
    })
    .onConflict((oc) =>
      oc.columns(['purpose', 'email']).doUpdateSet({
        code_hash: code.codeHash,
        expires_at: code.expiresAt,
        attempts: 0,
        sent_at: code.sentAt,
        payload: code.payload,
      }),
    )
    .execute();
}

export async function recordWrongAttempt(db: DB, purpose: CodePurpose, email: string): Promise<number> {
  const row = await db
    .updateTable('one_time_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

export async function deleteCode(db: DB, purpose: CodePurpose, email: string): Promise<void> {
  await db.deleteFrom('one_time_codes').where('purpose', '=', purpose).where('email', '=', email).execute();
}
