import { z } from 'zod';
import { CHAT } from './constants';
import { CHAT_MSG, CHAT_SERVER_MSG } from './messages';
import { collegeObjectSchema } from '../entities/user';
import { userRefSchema } from './entities';
import { hasVisibleText, stripNameControls } from '../names';

/** `?page=&limit=` of every history route: page from 1, limit up to 100 (the UI asks for 30). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(CHAT.pageSize),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The most students one directory page holds; a larger `limit` is lowered to it. */
export const DIRECTORY_PAGE_MAX = 50;

/**
 * `GET /api/users?q=&limit=&after=`: one page of the directory by name, optionally narrowed by `q` (part of
 * a name, or a whole e-mail address). `after` is the id of the last student of the previous page.
 */
export const userDirectoryQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DIRECTORY_PAGE_MAX)
    .transform((limit) => Math.min(limit, DIRECTORY_PAGE_MAX)),
  after: z.string().min(1).max(64).optional(),
});
export type UserDirectoryQuery = z.infer<typeof userDirectoryQuerySchema>;

/**
 * A group's name: direction controls and blank fillers stripped, trimmed, and refused when nothing visible
 * is left (a name of one zero-width space or joiner is no name).
 */
export const groupNameSchema = z
  .string({ error: CHAT_MSG.groupNameRequired })
  .overwrite(stripNameControls)
  .trim()
  .min(1, CHAT_MSG.groupNameRequired)
  .max(CHAT.maxGroupNameLength, CHAT_SERVER_MSG.groupNameTooLong)
  .refine(hasVisibleText, CHAT_MSG.groupNameRequired);

/** `POST /api/groups`. */
export const createGroupBodySchema = z.object({
  name: groupNameSchema,
  memberIds: z
    .array(z.string().min(1).max(64), { error: CHAT_MSG.groupMembersRequired })
    .min(1, CHAT_MSG.groupMembersRequired)
    .max(CHAT.maxGroupMembers, CHAT_SERVER_MSG.tooManyMembers),
});
export type CreateGroupBody = z.infer<typeof createGroupBodySchema>;

/**
 * `GET /api/users/{userId}`: what another student may see of a profile. No e-mail: with the directory's
 * ids, profile reads would otherwise hand out every student's address.
 */
export const publicProfileSchema = userRefSchema.extend({
  college: z.union([z.string(), collegeObjectSchema]).nullable(),
  course: z.string().nullable(),
  year: z.number().int().nullable(),
  bio: z.string().nullable(),
  lastActiveAt: z.string().nullable(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** Multipart fields of the attachment routes besides the file (`attachment`). */
export const attachmentFieldsSchema = z.object({
  /** Client-generated message id, so a retried upload never makes two messages. */
  id: z.uuid(),
});
