import { describe, expect, it } from 'vitest';
import {
  documentStatusBadge,
  formatBadgeCount,
  greetingName,
  initials,
  panelRelativeTime,
  parseStartupQuery,
  relativeTime,
} from '../src';

const now = Date.parse('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('relative time (feed: s, m, h, d ago)', () => {
  it.each([
    [0, '0s ago'],
    [59 * S, '59s ago'],
    [M, '1m ago'],
    [5 * M, '5m ago'],
    [59 * M, '59m ago'],
    [H, '1h ago'],
    [23 * H, '23h ago'],
    [D, '1d ago'],
    [45 * D, '45d ago'],
  ])('%i ms → %s', (ms, label) => expect(relativeTime(ago(ms), now)).toBe(label));
  it('reads future times as just now', () => expect(relativeTime(now + 5000, now)).toBe('0s ago'));
});

describe('relative time (notifications panel scale)', () => {
  it.each([
    [30 * S, 'now'],
    [M, '1m'],
    [3 * H, '3h'],
    [6 * D, '6d'],
    [7 * D, '1w'],
    [27 * D, '3w'],
    [40 * D, '1mo'],
    [200 * D, '6mo'],
    [400 * D, '1y'],
    [800 * D, '2y'],
  ])('%i ms → %s', (ms, label) => expect(panelRelativeTime(ago(ms), now)).toBe(label));
});

describe('badges and names', () => {
  it('shows 99+ above 99 and nothing for zero', () => {
    expect(formatBadgeCount(0)).toBe('');
    expect(formatBadgeCount(7)).toBe('7');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
  });
  it('maps document statuses to their badges', () => {
    expect(documentStatusBadge('verified')).toBe('Student ID Verified');
    expect(documentStatusBadge('pending_submission')).toBe('Document Submission Pending');
    expect(documentStatusBadge('pending_verification')).toBe('Verification Pending');
    expect(documentStatusBadge('rejected')).toBe('Document Rejected');
    expect(documentStatusBadge('not_required')).toBe('No document required');
    expect(documentStatusBadge('weird')).toBe('Status Unknown');
    expect(documentStatusBadge(undefined)).toBe('Status Unknown');
  });
  it('greets by first name or User, and makes initials', () => {
    expect(greetingName({ firstName: 'Alex' })).toBe('Alex');
    expect(greetingName({ firstName: '' })).toBe('User');
    expect(greetingName(null)).toBe('User');
    expect(initials({ firstName: 'alex', lastName: 'rivera' })).toBe('AR');
    expect(initials({ firstName: 'Prince', lastName: '' })).toBe('P');
  });
});

describe('start-up query', () => {
  it('opens a confession', () => {
    expect(parseStartupQuery('?action=open_confession&confessionId=abc-1')).toEqual({
      kind: 'open_confession',
      route: '/confessions?confessionId=abc-1',
    });
  });
  it('ignores unsafe ids and unknown actions', () => {
    expect(parseStartupQuery('?action=open_confession&confessionId=../../x')).toEqual({
      kind: 'open_confession',
      route: '/confessions',
    });
    expect(parseStartupQuery('?action=open_chat&partnerId=u1')).toEqual({
      kind: 'open_chat',
      partnerId: 'u1',
    });
    expect(parseStartupQuery('?action=drop_tables')).toEqual({ kind: 'none' });
  });
});
