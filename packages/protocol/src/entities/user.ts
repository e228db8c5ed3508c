import { z } from 'zod';
import { branchSchema, interestSchema, skillLevelSchema } from '../random/filters';

export const DOCUMENT_STATUSES = [
  'verified',
  'pending_submission',
  'pending_verification',
  'rejected',
  'not_required',
] as const;
export const documentStatusSchema = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof documentStatusSchema>;

const BADGES: Record<DocumentStatus, string> = {
  verified: 'Student ID Verified',
  pending_submission: 'Document Submission Pending',
  pending_verification: 'Verification Pending',
  rejected: 'Document Rejected',
  not_required: 'No document required',
};

/** The profile badge for a document status; anything unknown reads 'Status Unknown'. */
export function documentStatusBadge(status: string | null | undefined): string {
  return status && status in BADGES ? BADGES[status as DocumentStatus] : 'Status Unknown';
}

export const ROLES = ['user', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const collegeObjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  city: z.string().optional(),
  stateName: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  acronyms: z.array(z.string()).optional(),
  types: z.array(z.string()).optional(),
});
export type CollegeObject = z.infer<typeof collegeObjectSchema>;

/** The user as every API answers it. Never carries the password hash or any token. */
export const userSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profilePictureUrl: z.string().nullable(),
  role: roleSchema,
  course: z.string().nullable(),
  year: z.number().int().nullable(),
  bio: z.string().nullable(),
  college: z.union([z.string(), collegeObjectSchema]).nullable(),
  /**
   * Focused talk's profile fields (issue 13): what other students' filters match on. The server always
   * answers them (an empty list and nulls until set); optional so older caches and fixtures still parse.
   */
  interests: z.array(interestSchema).optional(),
  skillLevel: skillLevelSchema.nullable().optional(),
  branch: branchSchema.nullable().optional(),
  documentStatus: documentStatusSchema,
  documentDeadline: z.string().nullable(),
  documentUrl: z.string().nullable(),
  documentSubmittedAt: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string().nullable(),
  /**
   * Set when the server presents the user to themselves (me, login, profile saves, `me_updated`): whether
   * the access policy lets them post, comment, react and start chats ('full') or not yet ('limited').
   */
  access: z.enum(['full', 'limited']).optional(),
  /** The last rejection's reason, for the student (only on their own profile while rejected). */
  rejectionReason: z.string().nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** 'Hi {first name or User}'. */
export function greetingName(user: Pick<User, 'firstName'> | null | undefined): string {
  return user?.firstName?.trim() || 'User';
}

/** Initials for the avatar button: first letters of first and last name, or '?' for nothing. */
export function initials(user: Pick<User, 'firstName' | 'lastName'> | null | undefined): string {
  const letters = `${user?.firstName?.trim()[0] ?? ''}${user?.lastName?.trim()[0] ?? ''}`;
  return letters.toUpperCase() || '?';
}
