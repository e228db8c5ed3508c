import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO = {
  admin: { email: 'admin@campustalk.test', password: 'admin-demo-123', firstName: 'Ada' },
  student: { email: 'alex@campustalk.test', password: 'student-demo-123', firstName: 'Alex' },
  rejected: { email: 'sam@campustalk.test', password: 'student-demo-123', firstName: 'Sam' },
};

/** A unique address per test run, so tests never collide on the shared server. */
export function freshEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@uni.edu`;
}

/** Reads the newest code mailed to `email` from the dev mailbox, as a newcomer would. */
export async function codeFromMailbox(request: APIRequestContext, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/dev/mailbox.json');
      const { mails } = (await res.json()) as { mails: { to: string; text: string }[] };
      code = /Your code: (\d{6})/.exec(mails.find((m) => m.to === email)?.text ?? '')?.[1];
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}
