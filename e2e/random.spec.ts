import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { newStudent, signedIn, type Student } from './chat-support';
import { DEMO } from './support';
import { FAKE_MEDIA, inboundStats, recordPeerConnections } from './webrtc';

/**
 * Random and focused talk between real students in separate browser contexts, with fake media. One file,
 * run in order: the queues are shared by the whole server, and these are the only tests that join them.
 */
test.use(FAKE_MEDIA);
test.describe.configure({ mode: 'serial' });

/** A fresh student with full access and a complete profile (college, course, year): Random Talk's gate. */
async function talker(request: APIRequestContext, firstName: string, college: string): Promise<Student> {
  const student = await newStudent(request, firstName);
  const saved = await request.put('/api/users/profile', {
    headers: { authorization: `Bearer ${student.token}` },
    data: { college, course: 'Computer Science', year: 2 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return student;
}

async function opened(browser: Browser, student: Student, path: string) {
  const side = await signedIn(browser, student);
  await side.context.addInitScript(recordPeerConnections);
  await side.page.goto(path);
  return side;
}

const room = (page: Page) => page.getByTestId('random-room');
const finding = (page: Page) => page.getByTestId('random-finding');

test('random text chat: matched, messages and typing both ways, End Chat, then Report (and its block) keeps them apart', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const ana = await talker(request, 'Ana', 'Lakeside University');
  const ben = await talker(request, 'Ben', 'Hillcrest College');
  const a = await opened(browser, ana, '/random-chat');
  const b = await opened(browser, ben, '/random-chat');
  await a.page.getByTestId('random-start').click();
  await b.page.getByTestId('random-start').click();
  await expect(room(a.page)).toBeVisible();
  await expect(room(b.page)).toBeVisible();
  // Each sees the other's college and course, never more.
  await expect(a.page.getByTestId('random-partner-college')).toHaveText('Hillcrest College');
  await expect(b.page.getByTestId('random-partner-college')).toHaveText('Lakeside University');

  const input = (page: Page) => page.getByTestId('random-message-input');
  await input(a.page).fill('Hi from Ana');
  await input(a.page).press('Enter');
  await expect(b.page.getByRole('log', { name: 'Messages' }).getByText('Hi from Ana')).toBeVisible();
  await input(b.page).pressSequentially('Hello', { delay: 40 });
  await expect(a.page.getByText('typing…')).toBeVisible();
  await input(b.page).press('Enter');
  await expect(
    a.page.getByRole('log', { name: 'Messages' }).getByText('Hello', { exact: true }),
  ).toBeVisible();
  await expect(a.page.getByText('typing…')).toBeHidden({ timeout: 5000 });

  // Ben's network drops for a moment: the room waits for him, and what Ana says meanwhile reaches him.
  await b.context.setOffline(true);
  await expect(b.page.getByText('Reconnecting… this chat is kept for a few seconds.')).toBeVisible();
  await input(a.page).fill('Sent while you were away');
  await input(a.page).press('Enter');
  await b.context.setOffline(false);
  await expect(
    b.page.getByRole('log', { name: 'Messages' }).getByText('Sent while you were away'),
  ).toBeVisible();
  await expect(b.page.getByText('Reconnecting… this chat is kept for a few seconds.')).toBeHidden();
  await input(b.page).fill('Back again');
  await input(b.page).press('Enter');
  await expect(a.page.getByRole('log', { name: 'Messages' }).getByText('Back again')).toBeVisible();

  await a.page.getByTestId('random-end').click();
  await expect(a.page.getByTestId('random-post')).toContainText('Nice chat!');
  await expect(b.page.getByTestId('random-post')).toContainText('Nice chat!');

  // Report from the post screen; 'Also block' stays ticked.
  await a.page.getByTestId('random-report').click();
  const dialog = a.page.getByRole('dialog', { name: 'Report Ben' });
  await dialog.getByLabel('Spam or scam').check();
  await expect(dialog.getByLabel('Also block Ben')).toBeChecked();
  await dialog.getByRole('button', { name: 'Submit report' }).click();
  await expect(dialog.getByText('Report sent. Thank you for keeping Campus Talk safe.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // It lands in the admins' queue with the chat as evidence.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await adminPage.goto('/login');
  await adminPage.getByLabel('Email').fill(DEMO.admin.email);
  await adminPage.getByLabel('Password', { exact: true }).fill(DEMO.admin.password);
  await adminPage.getByRole('button', { name: 'Log in' }).click();
  await expect(adminPage).not.toHaveURL(/\/login/);
  await adminPage.goto('/admin/reports');
  const report = adminPage.getByRole('article').filter({ hasText: 'Ben Test' }).first();
  await expect(report).toContainText('Spam or scam');
  await report.getByRole('button', { name: /View evidence \(4 messages\)/ }).click();
  const transcript = report.getByRole('list', { name: 'Evidence transcript' });
  await expect(transcript).toContainText('Hi from Ana');
  await expect(transcript).toContainText('Ben Test (reported)');
  await admin.close();

  // Blocked by the report: queued together again, they are never matched.
  await a.page.getByTestId('random-start-new').click();
  await b.page.getByTestId('random-start-new').click();
  await a.page.getByTestId('random-start').click();
  await b.page.getByTestId('random-start').click();
  await expect(finding(a.page)).toBeVisible();
  await expect(finding(b.page)).toBeVisible();
  await a.page.waitForTimeout(6000);
  await expect(room(a.page)).toHaveCount(0);
  await expect(room(b.page)).toHaveCount(0);
  await a.page.getByRole('button', { name: 'Cancel' }).click();
  await b.page.getByRole('button', { name: 'Cancel' }).click();
  await a.context.close();
  await b.context.close();
});

test('random audio reaches the partner with sound flowing, and video starts blurred until both press Reveal', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const cy = await talker(request, 'Cy', 'Lakeside University');
  const di = await talker(request, 'Di', 'Hillcrest College');
  const c = await opened(browser, cy, '/random-audio');
  const d = await opened(browser, di, '/random-audio');
  await c.page.getByTestId('random-start').click();
  await d.page.getByTestId('random-start').click();
  for (const side of [c.page, d.page]) {
    await expect(room(side)).toBeVisible();
    await expect
      .poll(async () => (await inboundStats(side)).audioBytes, { timeout: 20_000 })
      .toBeGreaterThan(2000);
  }
  await expect(c.page.getByTestId('random-free-left')).toHaveText(/^(10:00|09:\d\d) free left$/);
  await c.page.getByTestId('random-end').click();
  await expect(c.page.getByText('Great chat!')).toBeVisible();
  await expect(d.page.getByText('Great chat!')).toBeVisible();

  await c.context.close();
  await d.context.close();

  // Video, between two others (the same pair is not matched again for a while).
  const eve = await talker(request, 'Eve', 'Lakeside University');
  const fox = await talker(request, 'Fox', 'Hillcrest College');
  const e = await opened(browser, eve, '/random-video');
  const f = await opened(browser, fox, '/random-video');
  await e.page.getByTestId('random-start').click();
  await f.page.getByTestId('random-start').click();
  const remote = (page: Page) => page.getByTestId('random-remote-video');
  for (const side of [e.page, f.page]) {
    await expect(room(side)).toBeVisible();
    await expect(remote(side)).toHaveAttribute('data-blurred', 'true');
    await expect
      .poll(async () => (await inboundStats(side)).framesDecoded, { timeout: 20_000 })
      .toBeGreaterThan(5);
  }
  await e.page.getByTestId('random-reveal').click();
  await expect(f.page.getByTestId('random-reveal-hint')).toBeVisible();
  await e.page.waitForTimeout(500);
  await expect(remote(e.page)).toHaveAttribute('data-blurred', 'true');
  await expect(remote(f.page)).toHaveAttribute('data-blurred', 'true');
  await f.page.getByTestId('random-reveal').click();
  await expect(remote(e.page)).toHaveAttribute('data-blurred', 'false');
  await expect(remote(f.page)).toHaveAttribute('data-blurred', 'false');
  await f.page.getByTestId('random-end').click();
  await expect(e.page.getByRole('dialog', { name: 'What would you like to do?' })).toBeVisible();
  await e.context.close();
  await f.context.close();
});

/** Focused Talk from the landing: a college filter, then Focused Chat. */
async function focusedChat(page: Page, college: string): Promise<void> {
  await page.goto('/focused-talk');
  await page.getByTestId('focused-start').click();
  const dialog = page.getByRole('dialog', { name: 'Focused Talk' });
  await dialog.getByPlaceholder('Add a college by name').fill(college);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.getByTestId('filter-start').click();
  await expect(page.getByTestId('focused-summary')).toContainText('1 college');
  await page.getByTestId('focused-option-chat').click();
  // Finding, or matched at once when the right partner is already waiting.
  await expect(finding(page).or(room(page))).toBeVisible();
}

test('focused talk with a college filter matches the student from that college and not the other', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const gil = await talker(request, 'Gil', 'Alpha Institute');
  const hal = await talker(request, 'Hal', 'Beta University');
  const ida = await talker(request, 'Ida', 'Gamma College');
  const g = await opened(browser, gil, '/talk');
  const h = await opened(browser, hal, '/talk');
  const i = await opened(browser, ida, '/talk');
  // Gil and Hal both look for someone from Gamma College: neither satisfies the other, so they wait.
  await focusedChat(g.page, 'Gamma College');
  await focusedChat(h.page, 'Gamma College');
  await expect(finding(g.page)).toBeVisible();
  await expect(finding(h.page)).toBeVisible();
  await focusedChat(i.page, 'Alpha Institute');
  await expect(room(i.page)).toBeVisible();
  await expect(i.page.getByTestId('random-partner-college')).toHaveText('Alpha Institute');
  await expect(room(g.page)).toBeVisible();
  await expect(room(h.page)).toHaveCount(0);
  await expect(finding(h.page)).toBeVisible();
  await h.page.getByRole('button', { name: 'Cancel' }).click();
  for (const side of [g, h, i]) await side.context.close();
});
