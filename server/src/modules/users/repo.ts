import { randomUUID } from 'node:crypto';
import type { User } from '@campus/protocol';
import type { DB } from '../../lib/db/database';
import type { UserRow } from '../../lib/auth/session-user';

export { toUser, type UserRow } from '../../lib/auth/session-user';

export async function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: DB, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  role: 'user' | 'admin';
  documentStatus?: User['documentStatus'];
  course?: string | null;
  year?: number | null;
  college?: string | null;
  bio?: string | null;
  /** The sign-up address's domain when it belongs to a known college. */
  academicDomain?: string | null;
}

export async function insertUser(db: DB, user: NewUser, now: number): Promise<UserRow> {
  const row: UserRow = {
    id: randomUUID(),
    email: user.email,
    password_hash: user.passwordHash,
    first_name: user.firstName,
    last_name: user.lastName,
    phone_number: user.phoneNumber,
    role: user.role,
    profile_picture_url: null,
    course: user.course ?? null,
    year: user.year ?? null,
    bio: user.bio ?? null,
    college: user.college === undefined || user.college === null ? null : JSON.stringify(user.college),
    // Admins review documents and need none of their own (the access policy gives not_required full access).
    document_status: user.documentStatus ?? (user.role === 'admin' ? 'not_required' : 'pending_submission'),
    document_deadline: null,
    document_url: null,
    document_submitted_at: null,
    created_at: new Date(now).toISOString(),
    last_active_at: new Date(now).toISOString(),
    academic_domain: user.academicDomain ?? null,
    current_document_id: null,
    rejection_reason: null,
    interests: '[]',
    skill_level: null,
    branch: null,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/** Promoting to admin also makes a status other than verified `not_required`: admins need no document. */
export async function setUserRole(db: DB, id: string, role: 'user' | 'admin'): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
  if (role === 'admin')
    await db
      .updateTable('users')
      .set({ document_status: 'not_required' })
      .where('id', '=', id)
      .where('document_status', '!=', 'verified')
      .execute();
}

export async function setPasswordHash(db: DB, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export async function touchLastActive(db: DB, id: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_active_at: new Date(now).toISOString() })
    .where('id', '=', id)
    .execute();
}

export async function countUsers(db: DB): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
