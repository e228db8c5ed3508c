import { expect, test } from '@playwright/test';
import { messageList, newStudent, signedIn } from './chat-support';

const BANNER = 'Not connected. Messages may not send or receive.';

test('two students chat live: the conversation appears, typing shows, ticks go delivered then read', async ({
  browser,
  request,
}) => {
  const ana = await newStudent(request, 'Ana');
  const ben = await newStudent(request, 'Ben');
  const a = await signedIn(browser, ana);
  const b = await signedIn(browser, ben);

  await a.page.goto(`/chat/${ben.id}`);
  await expect(a.page.getByRole('heading', { name: /Ben/ })).toBeVisible();
  await a.page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hi Ben, lab at 4?');
  await a.page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
  const sent = messageList(a.page).getByRole('article').filter({ hasText: 'Hi Ben, lab at 4?' });
  await expect(sent).toHaveCount(1);

  // Ben is online on Talk: the conversation arrives live, unread, and Ana's tick turns to delivered.
  const row = b.page.getByRole('button', { name: /^Ana Test.*1 unread/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Hi Ben, lab at 4?');
  await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();

  await row.click();
  await expect(b.page).toHaveURL(new RegExp(`/chat/${ana.id}$`));
  await expect(messageList(b.page).getByText('Hi Ben, lab at 4?')).toHaveCount(1);
  await expect(sent.getByRole('img', { name: 'Read' })).toBeVisible();

  // Ben starts typing: Ana sees it in the header, and it goes away after he stops.
  await b.page
    .getByRole('textbox', { name: 'Message', exact: true })
    .pressSequentially('Sure', { delay: 30 });
  await expect(a.page.getByText('typing...')).toBeVisible();
  await expect(a.page.getByText('typing...')).toBeHidden({ timeout: 6000 });
  await b.page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
  await expect(messageList(a.page).getByText('Sure', { exact: true })).toHaveCount(1);

  await a.context.close();
  await b.context.close();
});

test('offline: three messages wait as pending, arrive once when back online, and the cache survives an offline reload', async ({
  browser,
  request,
}) => {
  const cleo = await newStudent(request, 'Cleo');
  const dev = await newStudent(request, 'Dev');
  const c = await signedIn(browser, cleo);
  const d = await signedIn(browser, dev);

  await c.page.goto(`/chat/${dev.id}`);
  await c.page.getByRole('textbox', { name: 'Message', exact: true }).fill('Before the tunnel');
  await c.page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
  await d.page.goto(`/chat/${cleo.id}`);
  await expect(messageList(d.page).getByText('Before the tunnel')).toHaveCount(1);
  // The app shell must be in the service worker's cache before the network goes away.
  await c.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await c.context.setOffline(true);
  await expect(c.page.getByText(BANNER)).toBeVisible();
  const composer = c.page.getByRole('textbox', { name: 'Message', exact: true });
  for (const text of ['offline one', 'offline two', 'offline three']) {
    await composer.fill(text);
    await composer.press('Enter');
  }
  for (const text of ['offline one', 'offline two', 'offline three']) {
    const item = messageList(c.page).getByRole('article').filter({ hasText: text });
    await expect(item.getByRole('img', { name: 'Sending' })).toBeVisible();
  }
  await d.page.waitForTimeout(1500);
  await expect(messageList(d.page).getByText(/offline (one|two|three)/)).toHaveCount(0);

  // A reload while offline still shows the conversation from the local cache.
  await c.page.reload();
  await expect(messageList(c.page).getByText('Before the tunnel')).toBeVisible();
  await expect(messageList(c.page).getByText('offline three')).toBeVisible();
  await c.page.goto('/talk');
  await expect(c.page.getByRole('button', { name: /^Dev Test/ })).toBeVisible();
  await c.page.goto(`/chat/${dev.id}`);

  await c.context.setOffline(false);
  await expect(c.page.getByText(BANNER)).toBeHidden({ timeout: 15_000 });
  for (const text of ['offline one', 'offline two', 'offline three']) {
    await expect(messageList(d.page).getByText(text, { exact: true })).toHaveCount(1);
    const item = messageList(c.page).getByRole('article').filter({ hasText: text });
    await expect(item.getByRole('img', { name: 'Read' })).toBeVisible();
  }
  // Once, and in the order they were written.
  await d.page.waitForTimeout(1000);
  const texts = await messageList(d.page)
    .getByText(/^offline (one|two|three)$/)
    .allTextContents();
  expect(texts).toEqual(['offline one', 'offline two', 'offline three']);

  await c.context.close();
  await d.context.close();
});

test('two group members edit the group notes together', async ({ browser, request }) => {
  const eli = await newStudent(request, 'Eli');
  const fay = await newStudent(request, 'Fay');
  const created = await request.post('/api/groups', {
    headers: { authorization: `Bearer ${eli.token}` },
    data: { name: 'Study Circle', memberIds: [fay.id] },
  });
  expect(created.status()).toBe(201);
  const group = (await created.json()) as { id: string };

  const e = await signedIn(browser, eli);
  const f = await signedIn(browser, fay);
  for (const { page } of [e, f]) {
    await page.goto(`/group/${group.id}`);
    await expect(page.getByRole('heading', { name: 'Study Circle' })).toBeVisible();
    await page.getByRole('button', { name: 'Notes' }).click();
    await expect(page.getByText('Synced')).toBeVisible();
  }
  const eliNotes = e.page.getByRole('textbox', { name: 'Group notes' });
  const fayNotes = f.page.getByRole('textbox', { name: 'Group notes' });
  await eliNotes.click();
  await eliNotes.pressSequentially('Exam on Friday.');
  await expect(fayNotes).toHaveValue('Exam on Friday.');
  await fayNotes.click();
  await fayNotes.press('End');
  await fayNotes.pressSequentially(' Bring calculators.');
  await expect(eliNotes).toHaveValue('Exam on Friday. Bring calculators.');

  await e.context.close();
  await f.context.close();
});
