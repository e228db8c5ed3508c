import type { DocumentStatus, User } from '../entities/user';
import { UPLOAD, type AccessLevel, type VerificationPolicy } from './constants';
import { UPLOAD_MSG } from './messages';
import type { OcrResult } from './rest';

/** Lower-case letters only, accents folded: 'Sîti  Nur-Aisyah' → 'sitinuraisyah'. */
function letters(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/**
 * The detected name loosely matches the account's first name (section 5): some word of the card's name
 * starts like the first name or contains it, or the first name contains that word, ignoring case, accents
 * and punctuation. 'MUHAMMAD RIZKY PRATAMA' matches 'Rizky'; 'Budi' does not match 'Rizky'.
 */
export function namesLooselyMatch(detectedName: string, firstName: string): boolean {
  const first = letters(firstName);
  if (first.length < 2) return false;
  const words = detectedName
    .split(/[\s,.]+/)
    .map(letters)
    .filter((w) => w.length >= 2);
  return words.some((w) => w === first || w.startsWith(first) || first.startsWith(w) || w.includes(first));
}

/**
 * Section 5's checks of a recognition result, in the spec's order; an empty list means valid. Used by the
 * upload page on the client and again by the server on its own reading (the client's verdict is never
 * trusted). `fileSize` is the uploaded file's size: above 50,000 bytes it is taken to hold a photo.
 */
export function documentProblems(result: OcrResult, firstName: string, fileSize: number): string[] {
  const problems: string[] = [];
  const name = result.nama.trim();
  if (name.length < UPLOAD.minNameLength) problems.push(UPLOAD_MSG.nameTooShort);
  else if (!namesLooselyMatch(name, firstName)) problems.push(UPLOAD_MSG.nameMismatch);
  if (result.nim.replace(/\s/g, '').length < UPLOAD.minNimLength) problems.push(UPLOAD_MSG.nimTooShort);
  if (!result.kampus.trim()) problems.push(UPLOAD_MSG.campusMissing);
  if (!result.jurusan.trim()) problems.push(UPLOAD_MSG.majorMissing);
  if (fileSize <= UPLOAD.photoMinBytes) problems.push(UPLOAD_MSG.noPhoto);
  return problems;
}

/** The access policy: who may post, comment, react and start chats or groups. */
export function accessLevel(status: DocumentStatus, policy: VerificationPolicy): AccessLevel {
  if (policy === 'off') return 'full';
  return status === 'verified' || status === 'not_required' ? 'full' : 'limited';
}

/**
 * Whether the signed-in user may take part. The server tells (`user.access`, set when it presents users to
 * themselves, policy included); an older cached profile without it falls back to the status alone.
 */
export function hasFullAccess(user: Pick<User, 'documentStatus' | 'access'>): boolean {
  return (user.access ?? accessLevel(user.documentStatus, 'on')) === 'full';
}

/** Statuses from which a student may upload (again). */
export function canUploadDocument(status: DocumentStatus): boolean {
  return status === 'pending_submission' || status === 'rejected' || status === 'pending_verification';
}
