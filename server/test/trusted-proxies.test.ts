import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { parseTrustedProxies, resolveClientAddress } from '../src/lib/trusted-proxies';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * Behind a load balancer every request's TCP peer is the balancer: with TRUSTED_PROXIES naming it, the
 * per-IP limits count the students it forwards; a header from anyone else is never believed.
 */
describe('TRUSTED_PROXIES', () => {
  it('parses addresses and CIDR ranges, and refuses anything else', () => {
    expect(loadConfig({}).trustedProxies).toBeUndefined();
    const list = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, fd00::/8')!;
    expect(list.check('10.1.2.3', 'ipv4')).toBe(true);
    expect(list.check('11.1.2.3', 'ipv4')).toBe(false);
    expect(list.check('fd12::1', 'ipv6')).toBe(true);
    for (const bad of ['10.0.0.0/33', 'nginx', '10.0.0.1/8/1', '10.0.0.0/x', '::/129'])
      expect(() => parseTrustedProxies(bad)).toThrow(/TRUSTED_PROXIES/);
  });

  it('reads X-Forwarded-For from the right, only when the peer is trusted', () => {
    const list = parseTrustedProxies('10.0.0.0/8')!;
    // nginx appends the address it saw: the rightmost untrusted entry is the client.
    expect(resolveClientAddress('10.0.0.5', '203.0.113.9', list)).toBe('203.0.113.9');
    // What the client wrote itself (to the left) is not believed.
    expect(resolveClientAddress('10.0.0.5', '198.51.100.1, 203.0.113.9', list)).toBe('203.0.113.9');
    // Two of our proxies in a row are skipped.
    expect(resolveClientAddress('10.0.0.5', '203.0.113.9, 10.0.0.7', list)).toBe('203.0.113.9');
    // An untrusted peer's header is ignored.
    expect(resolveClientAddress('192.0.2.7', '203.0.113.9', list)).toBe('192.0.2.7');
    // The peer as a dual-stack listener reports an IPv4 balancer.
    expect(resolveClientAddress('::ffff:10.0.0.5', '203.0.113.9', list)).toBe('203.0.113.9');
    // Garbage ends the walk at the last trusted hop.
    expect(resolveClientAddress('10.0.0.5', 'not-an-ip, 10.0.0.8', list)).toBe('10.0.0.8');
    expect(resolveClientAddress('10.0.0.5', undefined, list)).toBe('10.0.0.5');
  });
});

describe('per-IP limits behind a trusted balancer', () => {
  let behindProxy: TestServer;
  let direct: TestServer;
  const rateRules = { signupPerIp: { limit: 2, windowMs: 60 * 60 * 1000 } };
  beforeAll(async () => {
    behindProxy = await startTestServer({
      config: { trustedProxies: parseTrustedProxies('127.0.0.1, ::1') },
      rateRules,
    });
    direct = await startTestServer({ rateRules });
  });
  afterAll(async () => {
    await behindProxy?.close();
    await direct?.close();
  });

  const signup = (server: TestServer, n: number, forwardedFor: string) =>
    fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({
        email: `student${n}-${Math.random().toString(36).slice(2)}@campus.edu`,
        password: 'correct horse battery staple 9',
        fullName: 'Student Test',
      }),
    }).then((r) => r.status);

  it('gives each forwarded student a budget of their own, and a spoofed left entry none', async () => {
    // Two students behind the balancer: neither uses up the other's signups.
    expect(await signup(behindProxy, 1, '203.0.113.1')).not.toBe(429);
    expect(await signup(behindProxy, 2, '203.0.113.1')).not.toBe(429);
    expect(await signup(behindProxy, 3, '203.0.113.2')).not.toBe(429);
    expect(await signup(behindProxy, 4, '203.0.113.1')).toBe(429);
    // A client writing its own X-Forwarded-For still counts as the address the balancer appended.
    expect(await signup(behindProxy, 5, '198.51.100.77, 203.0.113.1')).toBe(429);
  });

  it('ignores X-Forwarded-For without TRUSTED_PROXIES (a client cannot buy fresh budgets)', async () => {
    expect(await signup(direct, 1, '203.0.113.1')).not.toBe(429);
    expect(await signup(direct, 2, '203.0.113.2')).not.toBe(429);
    expect(await signup(direct, 3, '203.0.113.3')).toBe(429);
  });
});
