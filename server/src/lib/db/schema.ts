import type { Generated } from 'kysely';

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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
}
