import { z } from 'zod';
import { INDIA_STATE_CODES } from './catalog';

/**
 * The admins' review of colleges typed in by students (issue 11: "Manually added colleges are stored as
 * such and listed for admins to merge or approve"):
 * - `GET /api/admin/colleges/manual?after=&limit=`: the manual colleges, oldest first, in keyset pages;
 * - `POST /api/admin/colleges/{id}/approve {stateCode?, city?}`: the college becomes listed (in the picker);
 * - `POST /api/admin/colleges/{id}/merge {into}`: its students move to a listed college and it is removed.
 */

export const COLLEGE_ADMIN_MSG = {
  invalidId: 'Invalid college id.',
  notFound: 'College not found.',
  targetNotFound: 'The college to merge into was not found.',
  notManual: 'This college is no longer waiting for review.',
  targetNotListed: 'Colleges can only be merged into a listed college.',
  stateOnlyForIndia: 'Only colleges in India have a state.',
  unknownState: 'Please choose one of the states of India.',
  cityTooLong: 'The city must be at most 100 characters.',
  /** Approving with a state gives the college the key of a listed one that already exists. */
  duplicate: 'A listed college already has this name there. Merge into it instead.',
  loadFailed: 'Failed to load colleges',
  actionFailed: 'Failed to save. Please try again.',
  empty: 'No colleges waiting',
} as const;

/** A college's id as the catalog makes it (`col_` and a hash of its key). */
export const collegeIdSchema = z
  .string()
  .regex(/^col_[A-Za-z0-9_-]{1,64}$/, { message: COLLEGE_ADMIN_MSG.invalidId });

export const MANUAL_COLLEGES_PAGE = { default: 50, max: 100 } as const;

export const manualCollegesQuerySchema = z.object({
  /** The previous page's `next` (`createdAt|id` of its last college). */
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MANUAL_COLLEGES_PAGE.max).default(MANUAL_COLLEGES_PAGE.default),
});
export type ManualCollegesQuery = z.infer<typeof manualCollegesQuerySchema>;

/** One college waiting in the admins' list. */
export const manualCollegeItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  /** India's ISO 3166-2:IN code without `IN-`; a manual college has none until it is approved with one. */
  stateCode: z.string().nullable(),
  stateName: z.string().nullable(),
  city: z.string().nullable(),
  createdAt: z.string(),
  /** How many students' profiles name this college. */
  students: z.number().int().min(0),
});
export type ManualCollegeItem = z.infer<typeof manualCollegeItemSchema>;

export const manualCollegesResponseSchema = z.object({
  colleges: z.array(manualCollegeItemSchema),
  /** Pass as `after` for the next page; null at the end. */
  next: z.string().nullable(),
  /** Manual colleges waiting in all (the admin page's link shows it). */
  total: z.number().int().min(0),
});
export type ManualCollegesResponse = z.infer<typeof manualCollegesResponseSchema>;

const optionalText = (max: number, message: string) =>
  z
    .string()
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .refine((s) => s.length <= max, { message })
    .optional()
    .transform((s) => s || undefined);

/**
 * `POST /api/admin/colleges/{id}/approve`. For India a state puts the college in that state's list
 * (`/colleges/IN-{state}.json`); without one it is listed but in no state's list, so the picker (which
 * serves India per state) does not offer it. Other countries take no state.
 */
export const approveCollegeSchema = z.object({
  stateCode: z
    .string()
    .refine((code) => (INDIA_STATE_CODES as readonly string[]).includes(code), {
      message: COLLEGE_ADMIN_MSG.unknownState,
    })
    .optional(),
  city: optionalText(100, COLLEGE_ADMIN_MSG.cityTooLong),
});
/** What a client sends. */
export type ApproveCollegeRequest = z.input<typeof approveCollegeSchema>;
/** What the server reads from it (the city trimmed; an empty one is none). */
export type ApproveCollegeFields = z.output<typeof approveCollegeSchema>;

/** `POST /api/admin/colleges/{id}/merge`: the listed college the manual one is replaced by. */
export const mergeCollegeSchema = z.object({ into: collegeIdSchema });
export type MergeCollegeRequest = z.infer<typeof mergeCollegeSchema>;

/** The approved college as the list shows it (it has left the list). */
export const approveCollegeResponseSchema = z.object({ college: manualCollegeItemSchema });
export type ApproveCollegeResponse = z.infer<typeof approveCollegeResponseSchema>;

/** How many profiles moved to `into`. */
export const mergeCollegeResponseSchema = z.object({
  into: z.object({ id: z.string(), name: z.string(), country: z.string() }),
  students: z.number().int().min(0),
});
export type MergeCollegeResponse = z.infer<typeof mergeCollegeResponseSchema>;
