import { z } from 'zod';
import { CHAT } from './constants';
import { CHAT_MSG, CHAT_SERVER_MSG } from './messages';
import { collegeObjectSchema } from '../entities/user';
import { userRefSchema } from './entities';

/** `?page=&limit=` of every history route: page from 1, limit up to 100 (the UI asks for 30). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(CHAT.pageSize),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `GET /api/users?q=&limit=`: the directory, optionally narrowed by name or e-mail. */
export const userDirectoryQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

/** `POST /api/groups`. */
export const createGroupBodySchema = z.object({
  name: z
    .string({ error: CHAT_MSG.groupNameRequired })
    .trim()
    .min(1, CHAT_MSG.groupNameRequired)
    .max(CHAT.maxGroupNameLength, CHAT_SERVER_MSG.groupNameTooLong),
  memberIds: z
    .array(z.string().min(1).max(64), { error: CHAT_MSG.groupMembersRequired })
    .min(1, CHAT_MSG.groupMembersRequired)
    .max(CHAT.maxGroupMembers, CHAT_SERVER_MSG.tooManyMembers),
});
export type CreateGroupBody = z.infer<typeof createGroupBodySchema>;

/** `GET /api/users/{userId}`: what another student may see of a profile. */
export const publicProfileSchema = userRefSchema.extend({
  email: z.string(),
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
