/** The upload page's messages (spec 000, sections 5 and 8), word for word where the spec gives them. */
export const UPLOAD_MSG = {
  fileTooLarge: 'File size exceeds 2MB limit.',
  fileType: 'Invalid file type. Please upload a PDF or image (JPEG, PNG, WebP).',
  noFile: 'Please select a file to upload.',
  fixErrors: 'Please fix the validation errors before uploading.',
  nameTooShort: 'The name on the ID could not be read. Please upload a clearer photo.',
  nameMismatch: 'The name on the ID does not match your account. Please upload your own student ID.',
  nimTooShort: 'The student ID number (NIM) could not be read. Please upload a clearer photo.',
  campusMissing: 'The university name could not be read. Please upload a clearer photo.',
  majorMissing: 'The faculty or major could not be read. Please upload a clearer photo.',
  noPhoto: 'The ID does not seem to include a photo. Please upload the whole card.',
  signFailed: 'Failed to sign upload.',
  cloudFailed: 'Cloud upload failed',
  networkFailed: 'Network error during upload',
  saveFailed: 'Failed to save document.',
  tokenMissing: 'Authentication token not found. Please log in again.',
  /** Text-recognition failures start with this (section 8). */
  ocrFailedPrefix: 'Failed to process image with OCR service...',
  /** The text-recognition call's answer to a PDF (422): it is not read, the document goes to an admin. */
  pdfManual: 'PDF documents go to manual review.',
  camera: 'Unable to access camera. Please check permissions or try uploading a file instead.',
  manualMode:
    'We could not verify your ID automatically. Submit it for manual review: it takes 1 to 2 business days.',
  submitted: 'Document submitted! Taking you to Talk...',
  /** Server-side refusals of the signed-upload flow. */
  keyNotYours: 'This upload does not belong to your account.',
  uploadMissing: 'The file was not uploaded. Please try again.',
  uploadExpired: 'The upload link has expired. Please try again.',
  alreadyVerified: 'Your student ID is already verified.',
  alreadyPending: 'Your document is already waiting for review.',
} as const;

/** What an account that is not verified yet hears when it tries to take part (the access policy). */
export const ACCESS_MSG = {
  verificationRequired: 'Verify your student ID to do this. Upload your student ID to continue.',
  pendingVerification:
    'Your student ID is being reviewed. You can do this once it is verified (1 to 2 business days).',
  rejected: 'Your document was rejected. Please upload again.',
  /** Where the error's link goes. */
  uploadPath: '/upload-document',
} as const;

/** The admin review's messages (spec 000, section 8, plus ours). */
export const ADMIN_MSG = {
  noDocument: 'No document',
  notPending: 'Only documents waiting for verification can be verified or rejected.',
  documentRequired: 'Open the document before deciding.',
  documentReplaced: 'The student uploaded a new document meanwhile. Please review it again.',
  reasonRequired: 'Please give the student a reason for the rejection.',
  reasonTooLong: 'The reason must be at most 500 characters.',
  userNotFound: 'User not found',
  loadFailed: 'Failed to load documents',
  decisionFailed: 'Failed to save the decision',
} as const;
