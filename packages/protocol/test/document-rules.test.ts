import { describe, expect, it } from 'vitest';
import {
  UPLOAD_MSG,
  accessLevel,
  documentDecisionSchema,
  documentProblems,
  hasFullAccess,
  namesLooselyMatch,
} from '../src';

const card = {
  nama: 'MUHAMMAD RIZKY PRATAMA',
  nim: '2021 0012 34',
  kampus: 'Universitas Indonesia',
  jurusan: 'Ilmu Komputer',
};

describe("section 5's checks of a student ID", () => {
  it('passes a readable card of the account holder with a photo', () => {
    expect(documentProblems(card, 'Rizky', 120_000)).toEqual([]);
  });

  it('says what is wrong, in the spec order and words', () => {
    expect(documentProblems({ nama: 'Bu', nim: '12', kampus: ' ', jurusan: '' }, 'Rizky', 10_000)).toEqual([
      UPLOAD_MSG.nameTooShort,
      UPLOAD_MSG.nimTooShort,
      UPLOAD_MSG.campusMissing,
      UPLOAD_MSG.majorMissing,
      UPLOAD_MSG.noPhoto,
    ]);
    expect(documentProblems({ ...card, nama: 'BUDI SANTOSO' }, 'Rizky', 120_000)).toEqual([
      UPLOAD_MSG.nameMismatch,
    ]);
  });

  it('matches names loosely: case, accents and punctuation aside, a word starting like the first name', () => {
    expect(namesLooselyMatch('SÎTI NUR-AISYAH', 'siti')).toBe(true);
    expect(namesLooselyMatch('Rizky Pratama', 'Rizk')).toBe(true);
    expect(namesLooselyMatch('Budi Santoso', 'Rizky')).toBe(false);
    expect(namesLooselyMatch('Budi', 'B')).toBe(false);
  });
});

describe('the access policy', () => {
  it('gives full access to verified and not_required accounts, or to everyone with the policy off', () => {
    expect(accessLevel('verified', 'on')).toBe('full');
    expect(accessLevel('not_required', 'on')).toBe('full');
    for (const status of ['pending_submission', 'pending_verification', 'rejected'] as const) {
      expect(accessLevel(status, 'on')).toBe('limited');
      expect(accessLevel(status, 'off')).toBe('full');
    }
    expect(hasFullAccess({ documentStatus: 'rejected', access: 'full' })).toBe(true);
    expect(hasFullAccess({ documentStatus: 'rejected' })).toBe(false);
  });
});

describe('an admin decision', () => {
  it('needs a reason to reject and the document to verify or reject; exempt needs neither', () => {
    expect(
      documentDecisionSchema.safeParse({ action: 'reject', documentId: 'd1', reason: '  ' }).success,
    ).toBe(false);
    expect(documentDecisionSchema.safeParse({ action: 'verify' }).success).toBe(false);
    expect(documentDecisionSchema.safeParse({ action: 'verify', documentId: 'd1' }).success).toBe(true);
    expect(documentDecisionSchema.safeParse({ action: 'exempt' }).success).toBe(true);
  });
});
