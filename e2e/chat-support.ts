import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { codeFromMailbox, DEMO, freshEmail, logIn } from './support';

export interface Student {
  id: string;
  firstName: string;
  email: string;
  password: string;
  token: string;
}

let adminToken: Promise<string> | undefined;

/** The seeded admin's session, signed in once per worker (the review routes need it). */
function adminSession(request: APIRequestContext): Promise<string> {
  adminToken ??= request
    .post('/api/auth/login', { data: { email: DEMO.admin.email, password: DEMO.admin.password } })
    .then(async (res) => {
      expect(res.status()).toBe(200);
      return ((await res.json()) as { token: string }).token;
    });
  return adminToken;
}

/**
 * A fresh student with full access, made through the same API calls the signup screen uses; the seeded
 * admin then exempts them through the review route (`not_required`), so the access policy lets them chat,
 * post and react without a student-ID upload in every test.
 */
export async function newStudent(request: APIRequestContext, firstName: string): Promise<Student> {
  const email = freshEmail(firstName.toLowerCase());
  const password = 'chat-pass-123';
  const signup = await request.post('/api/auth/signup', {
    data: { firstName, lastName: 'Test', email, password, phoneNumber: '' },
  });
  expect(signup.ok()).toBe(true);
  const verify = await request.post('/api/auth/verify-otp', {
    data: { email, otpCode: await codeFromMailbox(request, email) },
  });
  expect(verify.status()).toBe(201);
  const body = (await verify.json()) as { token: string; user: { id: string } };
  const exempt = await request.patch(`/api/upload/admin/documents/${body.user.id}`, {
    headers: { authorization: `Bearer ${await adminSession(request)}` },
    data: { action: 'exempt' },
  });
  expect(exempt.status()).toBe(200);
  return { id: body.user.id, firstName, email, password, token: body.token };
}

/** A browser context of its own (its own storage and IndexedDB) signed in as the student, on Talk. */
export async function signedIn(
  browser: Browser,
  student: Student,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await logIn(page, student.email, student.password);
  await expect(page).toHaveURL(/\/talk$/);
  return { context, page };
}

/** The messages of the open chat, by their text. */
export function messageList(page: Page) {
  return page.getByRole('log');
}
