import { describe, expect, it, vi } from 'vitest';
import { deepLinkRouteFromArgv, parseDeepLink } from '../src/main/deep-links';

vi.mock('electron', () => ({}));

describe('deep links', () => {
  it('opens Confessions at the linked confession', () => {
    expect(parseDeepLink('campustalk://open?action=open_confession&confessionId=c_123')).toBe(
      '/confessions?confessionId=c_123',
    );
    expect(parseDeepLink('campustalk://open/?action=open_confession&confessionId=abc-9')).toBe(
      '/confessions?confessionId=abc-9',
    );
  });

  it('opens Confessions without a target when the id is not a valid id', () => {
    expect(parseDeepLink('campustalk://open?action=open_confession&confessionId=../../x')).toBe(
      '/confessions',
    );
    expect(parseDeepLink('campustalk://open?action=open_confession')).toBe('/confessions');
  });

  it.each([
    'campustalk://open?action=open_chat&partnerId=u_1',
    'campustalk://open?action=delete_account',
    'campustalk://open',
    'campustalk://evil?action=open_confession&confessionId=1',
    'campustalk://open/admin?action=open_confession&confessionId=1',
    'https://open?action=open_confession&confessionId=1',
    'app://campus-talk/confessions',
    'campustalk:',
    'garbage',
  ])('ignores %s', (link) => {
    expect(parseDeepLink(link)).toBeNull();
  });

  it('finds the link among the arguments a second instance was started with', () => {
    expect(
      deepLinkRouteFromArgv([
        'C:\\Program Files\\Campus Talk\\Campus Talk.exe',
        '--allow-file-access-from-files',
        'campustalk://open?action=open_confession&confessionId=c_7',
      ]),
    ).toBe('/confessions?confessionId=c_7');
    expect(deepLinkRouteFromArgv(['/usr/bin/campus-talk', '--no-sandbox'])).toBeNull();
  });
});
