import { z } from 'zod';
import { userRefSchema } from '../chat/entities';
import { frameId } from '../realtime/frame-parts';
import { REPORT, REPORT_DECISIONS, REPORT_REASONS, REPORT_STATUSES } from './constants';
import { REPORT_MSG } from './messages';

export const reportReasonSchema = z.enum(REPORT_REASONS, { error: REPORT_MSG.reasonRequired });
export const reportStatusSchema = z.enum(REPORT_STATUSES);

/** Where a report was made. The reported user of a chat, call or friend report is the context's user. */
export const randomRoomContextSchema = z.object({ kind: z.literal('random_room'), roomId: frameId });
export const chatContextSchema = z.object({ kind: z.literal('chat'), userId: frameId });
export const callContextSchema = z.object({
  kind: z.literal('call'),
  callLogId: frameId.optional(),
  userId: frameId,
});
export const friendContextSchema = z.object({ kind: z.literal('friend'), userId: frameId });

export const reportContextSchema = z.discriminatedUnion('kind', [
  randomRoomContextSchema,
  chatContextSchema,
  callContextSchema,
  friendContextSchema,
]);
export type ReportContext = z.infer<typeof reportContextSchema>;

/** The contexts `POST /api/reports` takes; a random room is reported over /ws by the random module. */
export const restReportContextSchema = z.discriminatedUnion('kind', [
  chatContextSchema,
  callContextSchema,
  friendContextSchema,
]);
export type RestReportContext = z.infer<typeof restReportContextSchema>;

const noteSchema = (max: number, message: string) =>
  z
    .string()
    .transform((s) => s.trim())
    .refine((s) => s.length <= max, { message })
    .optional();

/** `POST /api/reports`. `block` (default true): the reporter also blocks the reported user. */
export const createReportBodySchema = z.object({
  context: restReportContextSchema,
  reason: reportReasonSchema,
  note: noteSchema(REPORT.noteMax, REPORT_MSG.noteTooLong),
  block: z.boolean().default(true),
});
export type CreateReportBody = z.input<typeof createReportBodySchema>;

export const createReportResponseSchema = z.object({ id: z.string(), message: z.string() });
export type CreateReportResponse = z.infer<typeof createReportResponseSchema>;

/** One message of a text room's transcript, as relayed, kept with its report. */
export const evidenceMessageSchema = z.object({
  from: z.enum(['reporter', 'reported']),
  text: z.string(),
  at: z.string(),
});
export type EvidenceMessage = z.infer<typeof evidenceMessageSchema>;

export const reportEvidenceSchema = z.object({
  messages: z.array(evidenceMessageSchema).max(REPORT.evidenceMessages),
});
export type ReportEvidence = z.infer<typeof reportEvidenceSchema>;

/** Random talk closed to a student: until a date (an admin's suspension), or until an admin reviews. */
export const randomTalkRestrictionSchema = z.object({
  until: z.string().nullable(),
  reason: z.enum(['suspended', 'review']),
});
export type RandomTalkRestriction = z.infer<typeof randomTalkRestrictionSchema>;

/** `GET /api/admin/reports?status=&before=&limit=`. `before`: the previous page's `next`. */
export const adminReportsQuerySchema = z.object({
  status: reportStatusSchema.default('open'),
  before: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(REPORT.pageMax).default(REPORT.pageDefault),
});
export type AdminReportsQuery = z.infer<typeof adminReportsQuerySchema>;

const optionalNote = noteSchema(REPORT.decisionNoteMax, REPORT_MSG.noteTooLong);
const days = (range: { min: number; max: number }) => z.number().int().min(range.min).max(range.max);

/** `POST /api/admin/reports/:id/decision`. */
export const reportDecisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('warn'), note: optionalNote }),
  z.object({
    decision: z.literal('suspend_random'),
    days: days(REPORT.suspendRandomDays),
    note: optionalNote,
  }),
  z.object({
    decision: z.literal('suspend_account'),
    days: z.union([days(REPORT.suspendAccountDays), z.literal('permanent')]),
    note: optionalNote,
  }),
  z.object({ decision: z.literal('dismiss'), note: optionalNote }),
]);
export type ReportDecision = z.input<typeof reportDecisionSchema>;

/** `POST /api/admin/users/:id/random-hold/clear`: an admin reviewed the user; random talk opens again. */
export const clearHoldBodySchema = z.object({ note: optionalNote });
export const clearHoldResponseSchema = z.object({ message: z.string(), cleared: z.boolean() });

/** The reported user's restrictions as they stand (null fields: none). */
export const userRestrictionSchema = z.object({
  randomSuspendedUntil: z.string().nullable(),
  randomReviewHold: z.boolean(),
  accountSuspendedUntil: z.string().nullable(),
});
export type UserRestriction = z.infer<typeof userRestrictionSchema>;

const adminRefSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });

export const reportDecisionRecordSchema = z.object({
  decision: z.enum(REPORT_DECISIONS),
  /** Days of a suspension; null for a permanent one and for warn and dismiss. */
  days: z.number().int().nullable(),
  /** When a suspension ends (PERMANENT_SUSPENSION_UNTIL when permanent). */
  until: z.string().nullable(),
  note: z.string().nullable(),
  by: adminRefSchema.nullable(),
  at: z.string(),
});
export type ReportDecisionRecord = z.infer<typeof reportDecisionRecordSchema>;

/** One report in the admin queue. `reporter` is null when the reporter's account was deleted. */
export const adminReportItemSchema = z.object({
  id: z.string(),
  status: reportStatusSchema,
  reason: reportReasonSchema,
  note: z.string().nullable(),
  context: reportContextSchema,
  createdAt: z.string(),
  reporter: userRefSchema.nullable(),
  reported: userRefSchema,
  /** How many reports name the reported user, and how many of those were upheld. */
  reportedHistory: z.object({ reports: z.number().int(), upheld: z.number().int() }),
  reportedRestriction: userRestrictionSchema,
  /** Messages kept with the report (text rooms); the detail route carries them. */
  evidenceCount: z.number().int(),
  decision: reportDecisionRecordSchema.nullable(),
});
export type AdminReportItem = z.infer<typeof adminReportItemSchema>;

export const adminReportsResponseSchema = z.object({
  reports: z.array(adminReportItemSchema),
  next: z.string().nullable(),
  counts: z.object({ open: z.number().int(), upheld: z.number().int(), dismissed: z.number().int() }),
});
export type AdminReportsResponse = z.infer<typeof adminReportsResponseSchema>;

/** One entry of a user's moderation history (decisions and holds, automatic ones with `by: null`). */
export const moderationEntrySchema = z.object({
  id: z.string(),
  action: z.enum([...REPORT_DECISIONS, 'auto_hold', 'clear_hold']),
  reportId: z.string().nullable(),
  until: z.string().nullable(),
  note: z.string().nullable(),
  by: adminRefSchema.nullable(),
  at: z.string(),
});
export type ModerationEntry = z.infer<typeof moderationEntrySchema>;

/** `GET /api/admin/reports/:id`: the item with its evidence and the reported user's history. */
export const adminReportDetailSchema = adminReportItemSchema.extend({
  evidence: reportEvidenceSchema.nullable(),
  history: z.array(moderationEntrySchema),
});
export type AdminReportDetail = z.infer<typeof adminReportDetailSchema>;
