/** Student-ID upload and review limits (spec 000, sections 4, 5 and 9). */
export const UPLOAD = {
  /** Largest document accepted, in bytes (2 MB), after the client's compression. */
  maxBytes: 2 * 1024 * 1024,
  /** Images above this size are compressed before upload. */
  compressAboveBytes: 120 * 1024,
  /** Compression: longest side, target size, JPEG/WebP quality from `startQuality` down to `minQuality`. */
  maxSide: 2000,
  targetBytes: 800 * 1024,
  startQuality: 0.8,
  minQuality: 0.5,
  qualityStep: 0.08,
  /** Camera capture: JPEG at this quality. */
  cameraQuality: 0.8,
  /** A file above this size is taken to hold a photo (the spec's approximation). */
  photoMinBytes: 50_000,
  minNameLength: 3,
  minNimLength: 7,
  /** Manual mode after this many text-recognition failures or failed validations. */
  manualAfterRecognitionFailures: 1,
  manualAfterValidationFailures: 3,
  /** After a successful submission, the page goes to Talk after this long. */
  redirectMs: 2000,
  /** How long a signed upload URL stays valid. */
  signedUrlTtlSeconds: 10 * 60,
  /** How long an admin's signed document URL stays valid. */
  reviewUrlTtlSeconds: 5 * 60,
  /** Manual review takes 1 to 2 business days (shown to the student). */
  manualReviewDays: '1 to 2 business days',
  maxRejectReasonLength: 500,
} as const;

/** The document types accepted (section 5), by MIME type. */
export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export function isDocumentType(value: string): value is DocumentType {
  return (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/**
 * Who may take part (the access policy). `full`: verified students and `not_required` accounts (admins,
 * exempted accounts), or everyone when the deployment turned the policy off. `limited`: signed in, may edit
 * the profile, upload a document and read, but not post, comment, react or start chats or groups.
 */
export const ACCESS_LEVELS = ['full', 'limited'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** VERIFICATION_POLICY: `on` (the default) gates participation on verification; `off` lets everyone in. */
export type VerificationPolicy = 'on' | 'off';
