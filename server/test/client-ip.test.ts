import { describe, expect, it } from 'vitest';
import { clientKey } from '../src/lib/client-ip';

describe('the key rate limits count a client by', () => {
  it('keeps an IPv4 address, and an IPv4-mapped IPv6 address as that IPv4 address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  it('keys IPv6 by its /64, so one subscriber cannot get a fresh budget per address', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const other of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:abcd::9',
      '2001:db8:1:2:0:0:0:2',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::10.0.0.1',
    ])
      expect(clientKey(other), other).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('passes anything that is not an address through', () => {
    expect(clientKey('unknown')).toBe('unknown');
  });
});
