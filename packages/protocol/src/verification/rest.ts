import { z } from 'zod';
import { collegeObjectSchema, documentStatusSchema } from '../entities/user';
import { ADMIN_MSG, UPLOAD_MSG } from './messages';
import { UPLOAD } from './constants';

/**
 * The text-recognition service's answer (spec 000, sections 3 and 7: `POST {text-recognition service}/upload`,
 * multipart `file` → nama, nim, kampus, jurusan), served by this server at `POST /api/ocr/upload`. A field
 * that could not be read is an empty string.
 */
export const ocrResultSchema = z.object({
  nama: z.string().max(200),
  nim: z.string().max(64),
  kampus: z.string().max(200),
  jurusan: z.string().max(200),
});
export type OcrResult = z.infer<typeof ocrResultSchema>;

/** `POST /api/upload/document/sign`. */
export const documentSignRequestSchema = z.object({
  filename: z.string().max(255),
  contentType: z.string().max(100),
});
export type DocumentSignRequest = z.infer<typeof documentSignRequestSchema>;

/**
 * The signed upload: `PUT` the file to `url` (no bearer token: the URL itself is the short-lived permission,
 * as with a presigned object-store URL) with `Content-Type` equal to the signed content type.
 */
export const documentSignResponseSchema = z.object({
  url: z.string(),
  bucket: z.string(),
  key: z.string(),
});
export type DocumentSignResponse = z.infer<typeof documentSignResponseSchema>;

/**
 * `POST /api/upload/document/submit`. `manual`: the student asks for a manual review (after recognition or
 * validation failed). `recognized` is what the client's recognition call read, kept for the admin; the
 * server reads the document again itself and never trusts the client's verdict.
 */
export const documentSubmitRequestSchema = z.object({
  bucket: z.string().max(100),
  key: z.string().max(300),
  manual: z.boolean().default(false),
  recognized: ocrResultSchema.nullable().optional(),
});
export type DocumentSubmitRequest = z.infer<typeof documentSubmitRequestSchema>;

export const documentSubmitResponseSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  documentStatus: documentStatusSchema.optional(),
});
export type DocumentSubmitResponse = z.infer<typeof documentSubmitResponseSchema>;

/** `GET /api/upload/admin/documents?status=` (default pending_verification; `all` for every status). */
export const adminDocumentsQuerySchema = z.object({
  status: z.union([documentStatusSchema, z.literal('all')]).default('pending_verification'),
  /** Keyset page: the last item's `submittedAt|userId` of the previous page. */
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminDocumentsQuery = z.infer<typeof adminDocumentsQuerySchema>;

export const DOCUMENT_DECISIONS = ['verify', 'reject', 'exempt', 'submit'] as const;
export type DocumentDecisionAction = (typeof DOCUMENT_DECISIONS)[number];

/** One entry of an item's history: a submission (by the student) or a decision (by an admin). */
export const documentHistoryEntrySchema = z.object({
  id: z.string(),
  action: z.enum(DOCUMENT_DECISIONS),
  /** The admin's or the student's name. */
  by: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  at: z.string(),
  reason: z.string().nullable(),
  fromStatus: documentStatusSchema.nullable(),
  toStatus: documentStatusSchema,
});
export type DocumentHistoryEntry = z.infer<typeof documentHistoryEntrySchema>;

/** What the server's own reading of the document found (its re-check of the client's verdict). */
export const serverCheckSchema = z.object({
  /** ok: every rule of section 5 holds; failed: some did not (listed); skipped: a PDF or a manual request. */
  verdict: z.enum(['ok', 'failed', 'skipped', 'error']),
  problems: z.array(z.string()),
  recognized: ocrResultSchema.nullable(),
});
export type ServerCheck = z.infer<typeof serverCheckSchema>;

/** One student in the admin list, with what the reviewer needs beside the document. */
export const adminDocumentItemSchema = z.object({
  user: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    profilePictureUrl: z.string().nullable(),
    course: z.string().nullable(),
    year: z.number().int().nullable(),
    college: z.union([z.string(), collegeObjectSchema]).nullable(),
    documentStatus: documentStatusSchema,
    createdAt: z.string(),
  }),
  /** The sign-up address is at a known academic domain (the college it belongs to, if known). */
  academicEmail: z.object({ domain: z.string(), college: z.string().nullable() }).nullable(),
  document: z
    .object({
      /** The submission shown: a verify or reject names it, so a replaced document is never decided unseen. */
      id: z.string(),
      contentType: z.string(),
      size: z.number().int(),
      submittedAt: z.string(),
      manual: z.boolean(),
      /** What the student's recognition call read (as the client sent it). */
      clientRecognized: ocrResultSchema.nullable(),
      check: serverCheckSchema,
    })
    .nullable(),
  /** The student's visible reason of the last rejection, if any. */
  rejectionReason: z.string().nullable(),
  history: z.array(documentHistoryEntrySchema),
});
export type AdminDocumentItem = z.infer<typeof adminDocumentItemSchema>;

export const adminDocumentsResponseSchema = z.object({
  users: z.array(adminDocumentItemSchema),
  /** Pass as `after` for the next page; null at the end. */
  next: z.string().nullable(),
  /** Counts per status, for the tabs. */
  counts: z.record(z.string(), z.number().int()),
});
export type AdminDocumentsResponse = z.infer<typeof adminDocumentsResponseSchema>;

/** `GET /api/upload/admin/document-url?userId=` → a short-lived signed URL of the current document. */
export const adminDocumentUrlResponseSchema = z.object({
  url: z.string(),
  contentType: z.string(),
});

/** `PATCH /api/upload/admin/documents/{userId}`. A rejection needs a reason the student sees. */
export const documentDecisionSchema = z
  .object({
    action: z.enum(['verify', 'reject', 'exempt']),
    /** The document the admin looked at (the item's `document.id`); needed to verify or reject. */
    documentId: z.string().max(64).optional(),
    reason: z
      .string()
      .transform((s) => s.trim())
      .refine((s) => s.length <= UPLOAD.maxRejectReasonLength, { message: ADMIN_MSG.reasonTooLong })
      .optional(),
  })
  .refine((d) => d.action !== 'reject' || (d.reason?.length ?? 0) > 0, {
    message: ADMIN_MSG.reasonRequired,
    path: ['reason'],
  })
  .refine((d) => d.action === 'exempt' || !!d.documentId, {
    message: ADMIN_MSG.documentRequired,
    path: ['documentId'],
  });
export type DocumentDecision = z.infer<typeof documentDecisionSchema>;

/** `GET /api/upload/document/status`: the student's own document state (the upload page and profile). */
export const myDocumentResponseSchema = z.object({
  documentStatus: documentStatusSchema,
  submittedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  contentType: z.string().nullable(),
});
export type MyDocumentResponse = z.infer<typeof myDocumentResponseSchema>;

export { UPLOAD_MSG };
