import { describe, expect, it } from 'vitest';
import { createLiveSockets } from '../src/lib/auth/live-sockets';

function socket() {
  const s = { revoked: 0, revoke: () => void (s.revoked += 1) };
  return s;
}

describe('live-socket registry', () => {
  it('revokes a session’s sockets even while their token lookup is still running', () => {
    const live = createLiveSockets(() => undefined);
    const pending = socket();
    const entry = live.track('session-a', pending);
    live.revokeSession('session-a');
    expect(pending.revoked).toBe(1);
    // The lookup finishing afterwards does not bring it back under the user.
    entry.identify('user-1');
    live.revokeUser('user-1');
    expect(pending.revoked).toBe(1);
  });

  it('revokes by user only the identified sockets of that user, once each, and forgets released ones', () => {
    const errors: unknown[] = [];
    const live = createLiveSockets((err) => errors.push(err));
    const [a, b, other, gone] = [socket(), socket(), socket(), socket()];
    live.track('s-a', a).identify('user-1');
    live.track('s-b', b).identify('user-1');
    live.track('s-c', other).identify('user-2');
    const released = live.track('s-d', gone);
    released.identify('user-1');
    released.release();
    const faulty = {
      revoke: () => {
        throw new Error('boom');
      },
    };
    live.track('s-e', faulty).identify('user-1');

    live.revokeUser('user-1');
    live.revokeUser('user-1');
    live.revokeSession('s-a');
    expect([a.revoked, b.revoked, other.revoked, gone.revoked]).toEqual([1, 1, 0, 0]);
    expect(errors).toHaveLength(1);
  });
});
