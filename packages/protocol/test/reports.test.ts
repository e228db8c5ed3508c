import { describe, expect, it } from 'vitest';
import {
  PERMANENT_SUSPENSION_UNTIL,
  REPORT,
  REPORT_MSG,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  createReportBodySchema,
  randomRestrictionMessage,
  reportDecisionSchema,
} from '../src';

describe('report schemas', () => {
  it('a REST report: chat, call or friend context, a known reason, a trimmed note of at most 500, block by default', () => {
    const body = createReportBodySchema.parse({
      context: { kind: 'chat', userId: 'u1' },
      reason: 'spam',
      note: '  links  ',
    });
    expect(body).toEqual({
      context: { kind: 'chat', userId: 'u1' },
      reason: 'spam',
      note: 'links',
      block: true,
    });
    expect(
      createReportBodySchema.parse({
        context: { kind: 'friend', userId: 'u1' },
        reason: 'hate',
        block: false,
      }).block,
    ).toBe(false);
    const refused = (value: unknown) => createReportBodySchema.safeParse(value).error?.issues[0]?.message;
    expect(refused({ context: { kind: 'random_room', roomId: 'r' }, reason: 'spam' })).toBeDefined();
    expect(refused({ context: { kind: 'chat', userId: 'u1' }, reason: 'rude' })).toBe(
      REPORT_MSG.reasonRequired,
    );
    expect(
      refused({
        context: { kind: 'chat', userId: 'u1' },
        reason: 'spam',
        note: 'x'.repeat(REPORT.noteMax + 1),
      }),
    ).toBe(REPORT_MSG.noteTooLong);
    expect(Object.keys(REPORT_REASON_LABELS)).toEqual([...REPORT_REASONS]);
  });

  it('decisions: days within their ranges, an account suspension may be permanent', () => {
    const ok = (value: unknown) => reportDecisionSchema.safeParse(value).success;
    expect(ok({ decision: 'warn' })).toBe(true);
    expect(ok({ decision: 'suspend_random', days: 90 })).toBe(true);
    expect(ok({ decision: 'suspend_random', days: 91 })).toBe(false);
    expect(ok({ decision: 'suspend_random', days: 'permanent' })).toBe(false);
    expect(ok({ decision: 'suspend_account', days: 365 })).toBe(true);
    expect(ok({ decision: 'suspend_account', days: 0 })).toBe(false);
    expect(ok({ decision: 'suspend_account', days: 'permanent' })).toBe(true);
    expect(ok({ decision: 'ban' })).toBe(false);
  });

  it('restriction texts carry the date, and say a permanent suspension plainly', () => {
    expect(REPORT_MSG.accountSuspended('2026-03-12T08:00:00.000Z')).toBe(
      'Your account is suspended until March 12, 2026.',
    );
    expect(REPORT_MSG.accountSuspended(PERMANENT_SUSPENSION_UNTIL)).toBe('Your account has been suspended.');
    expect(randomRestrictionMessage({ until: '2026-03-12T23:30:00.000Z', reason: 'suspended' })).toBe(
      'Random talk is paused for your account until March 12, 2026.',
    );
    expect(randomRestrictionMessage({ until: null, reason: 'review' })).toBe(REPORT_MSG.randomReview);
  });
});
