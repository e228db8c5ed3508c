import { expect } from 'vitest';
import { ACCESS_MSG, type DocumentStatus } from '@campus/protocol';

/** The statuses the access policy limits (read, edit the profile, upload) and those with full access. */
export const LIMITED = ['pending_submission', 'pending_verification', 'rejected'] as const;
export const FULL = ['verified', 'not_required'] as const;
export const STATUSES: readonly DocumentStatus[] = [...LIMITED, ...FULL];

/** The text each limited status is refused with (written out here, not taken from the server's code). */
export const REFUSAL_TEXT: Record<(typeof LIMITED)[number], string> = {
  pending_submission: ACCESS_MSG.verificationRequired,
  pending_verification: ACCESS_MSG.pendingVerification,
  rejected: ACCESS_MSG.rejected,
};

/** A REST refusal of the policy: 403 with the text, the code and the upload page's path. */
export function expectRestRefusal(
  res: { status: number; body: Record<string, unknown> },
  status: (typeof LIMITED)[number],
  label: string,
): void {
  expect(res.status, `${label} as ${status}: ${JSON.stringify(res.body)}`).toBe(403);
  expect(res.body, label).toEqual({
    error: REFUSAL_TEXT[status],
    code: 'verificationRequired',
    uploadPath: '/upload-document',
  });
}
