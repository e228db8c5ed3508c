import { UPLOAD_MSG, type AdminDocumentItem, type DocumentStatus, type OcrResult } from '@campus/protocol';

/** Test data of the admin review. */
export const LIST = '/api/upload/admin/documents?status=';
export const list = (status: string, after?: string) =>
  `GET ${LIST}${status}&limit=20${after ? `&after=${encodeURIComponent(after)}` : ''}`;
export const decision = (userId: string) => `PATCH /api/upload/admin/documents/${userId}`;
export const documentUrl = (userId: string) => `GET /api/upload/admin/document-url?userId=${userId}`;

const card = (nama: string, nim: string): OcrResult => ({
  nama,
  nim,
  kampus: 'Universitas Indonesia',
  jurusan: 'Ilmu Komputer',
});

export function item(
  id: string,
  firstName: string,
  status: DocumentStatus = 'pending_verification',
  overrides: Partial<AdminDocumentItem> = {},
): AdminDocumentItem {
  return {
    user: {
      id,
      firstName,
      lastName: 'Putri',
      email: `${firstName.toLowerCase()}@ui.ac.id`,
      profilePictureUrl: null,
      course: 'Ilmu Komputer',
      year: 2,
      college: 'Universitas Indonesia',
      documentStatus: status,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    academicEmail: { domain: 'ui.ac.id', college: 'Universitas Indonesia' },
    document: {
      id: `doc-${id}`,
      contentType: 'image/jpeg',
      size: 120_000,
      submittedAt: '2026-01-02T10:00:00.000Z',
      manual: false,
      clientRecognized: card(`${firstName.toUpperCase()} PUTRI`, '2021001234'),
      check: {
        verdict: 'failed',
        problems: [UPLOAD_MSG.nimTooShort],
        recognized: card(`${firstName.toUpperCase()} PUTRI`, '20210'),
      },
    },
    rejectionReason: null,
    history: [
      {
        id: `h-${id}`,
        action: 'submit',
        by: { id, firstName, lastName: 'Putri' },
        at: '2026-01-02T10:00:00.000Z',
        reason: null,
        fromStatus: 'pending_submission',
        toStatus: 'pending_verification',
      },
    ],
    ...overrides,
  };
}

export const COUNTS = {
  pending_verification: 2,
  verified: 5,
  rejected: 1,
  pending_submission: 3,
  not_required: 0,
};

export function page(users: AdminDocumentItem[], next: string | null = null, counts = COUNTS) {
  return { status: 200, body: { users, next, counts } };
}
