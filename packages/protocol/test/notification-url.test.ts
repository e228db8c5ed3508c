import { describe, expect, it } from 'vitest';
import { notificationUrl } from '../src';

describe('the route a notification opens', () => {
  it('confession types open the confession, a friend request the requests modal', () => {
    expect(notificationUrl({ type: 'confession_comment', data: { confessionId: 'c 1' } })).toBe(
      '/confessions?confessionId=c%201',
    );
    expect(notificationUrl({ type: 'confession_reaction', data: {} })).toBe('/confessions');
    expect(notificationUrl({ type: 'friend_request', data: {} })).toBe('/talk?friendRequests=1');
  });

  it('a verification decision opens the profile (verified) or the upload page (rejected)', () => {
    expect(notificationUrl({ type: 'document_verified', data: {} })).toBe('/profile');
    expect(notificationUrl({ type: 'document_rejected', data: {} })).toBe('/upload-document');
  });

  it("a moderator's notice opens Talk", () => {
    expect(notificationUrl({ type: 'moderation_notice', data: {} })).toBe('/talk');
  });
});
