import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { STORAGE_KEYS, type User } from '@campus/protocol';
import { SELF_META_KEY } from '@campus/sync';
import { selfRowStep } from '../src/features/sync/SelfProfileSync';
import { student } from './helpers';
import { SLOW, renderProfile, resetProfile } from './profile-kit';
import { userDatabase } from './sync-provider-fake';

afterEach(resetProfile);

const pending: User = { ...student, documentStatus: 'pending_verification', access: 'limited' };

describe('the signed-in user follows me_updated', () => {
  it('takes a newer row only, for this user, and keeps the first row it finds as the baseline', () => {
    const row = (seq: number, user: User = student) => ({ seq, user });
    // First read: baseline, nothing taken (the session's /me answer is at least as new).
    expect(selfRowStep(null, row(7), student.id)).toEqual({ applied: 7, user: null });
    expect(selfRowStep(null, null, student.id)).toEqual({ applied: 0, user: null });
    // Newer: taken. Same or older: ignored.
    expect(selfRowStep(7, row(8, pending), student.id)).toEqual({ applied: 8, user: pending });
    expect(selfRowStep(8, row(8, pending), student.id)).toEqual({ applied: 8, user: null });
    expect(selfRowStep(8, row(3), student.id)).toEqual({ applied: 8, user: null });
    // Another account's row, or one that is not a user, is never taken.
    expect(selfRowStep(8, row(9, { ...student, id: 'u-other' }), student.id)).toEqual({
      applied: 9,
      user: null,
    });
    expect(selfRowStep(8, { seq: 10, user: { id: student.id } }, student.id)).toEqual({
      applied: 8,
      user: null,
    });
  });

  it("turns the badge to 'Student ID Verified' when an admin's decision arrives through sync", async () => {
    const db = userDatabase(student.id);
    // Written in an earlier session: older than this start-up's /me, so not taken.
    await db.meta.put({
      key: SELF_META_KEY,
      value: { seq: 3, user: { ...student, documentStatus: 'pending_submission' } },
    });
    renderProfile(pending);
    expect(await screen.findByText('Verification Pending', {}, SLOW)).toBeTruthy();

    const verified: User = { ...student, documentStatus: 'verified', access: 'full' };
    let seq = 3;
    // The row is written again (as later changes would) until the hook has read its baseline and takes one.
    await waitFor(async () => {
      seq += 1;
      await db.meta.put({ key: SELF_META_KEY, value: { seq, user: verified } });
      expect(screen.getByText('Student ID Verified')).toBeTruthy();
    }, SLOW);
    expect(screen.queryByText('Document Submission Pending')).toBeNull();
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.session)!) as { user: User };
    expect(stored.user).toMatchObject({ documentStatus: 'verified', access: 'full' });
    db.close();
  });
});
