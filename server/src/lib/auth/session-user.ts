import type { Selectable } from 'kysely';
import {
  BRANCH_OPTIONS,
  INTEREST_OPTIONS,
  SKILL_LEVELS,
  type CollegeObject,
  type Interest,
  type User,
} from '@campus/protocol';
import type { UsersTable } from '../db/schema';

/**
 * The user row and its one mapper to the API's `User`. It lives beside the sessions because signing in is
 * infrastructure every route needs (a session resolves to this user); the users module re-exports it.
 */
export type UserRow = Selectable<UsersTable>;

/** Row → API user. The password hash and phone number never leave the server. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    profilePictureUrl: row.profile_picture_url,
    role: row.role === 'admin' ? 'admin' : 'user',
    course: row.course,
    year: row.year,
    bio: row.bio,
    college: parseCollege(row.college),
    interests: parseInterests(row.interests),
    skillLevel: optionOf(SKILL_LEVELS, row.skill_level),
    branch: optionOf(BRANCH_OPTIONS, row.branch),
    documentStatus: isDocumentStatus(row.document_status) ? row.document_status : 'pending_submission',
    documentDeadline: row.document_deadline,
    documentUrl: row.document_url,
    documentSubmittedAt: row.document_submitted_at,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
  };
}

function parseCollege(value: string | null): string | CollegeObject | null {
  if (value === null) return null;
  try {
    return JSON.parse(value) as string | CollegeObject;
  } catch {
    return value;
  }
}

/** The stored interests (a JSON array, migration 0019), keeping only the options of the list. */
export function parseInterests(value: string | null | undefined): Interest[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    if (!Array.isArray(list)) return [];
    const known = new Set<string>(INTEREST_OPTIONS);
    return [...new Set(list)].filter((v): v is Interest => typeof v === 'string' && known.has(v));
  } catch {
    return [];
  }
}

/** A stored option (skill level, branch), or null for none or one the list no longer has. */
export function optionOf<T extends string>(options: readonly T[], value: string | null): T | null {
  return options.find((o) => o === value) ?? null;
}

function isDocumentStatus(value: string): value is User['documentStatus'] {
  return ['verified', 'pending_submission', 'pending_verification', 'rejected', 'not_required'].includes(
    value,
  );
}
