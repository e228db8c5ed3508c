import { expect, test, type Page } from '@playwright/test';
import { newStudent, signedIn } from './chat-support';

async function chooseNickname(page: Page, nickname: string) {
  await page.getByRole('button', { name: 'Choose nickname' }).click();
  await page.getByLabel('Nickname', { exact: true }).fill(nickname);
  await expect(page.getByRole('status').filter({ hasText: 'available' })).toBeVisible();
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Choose nickname' })).toHaveCount(0);
}

function card(page: Page, nickname: string) {
  return page.getByRole('article', { name: nickname });
}

function bellBadge(page: Page) {
  return page.getByRole('button', { name: 'Notifications' }).locator('.bell__badge');
}

test('a censored confession, a like and a comment reach the author live; the panel leads back to the card', async ({
  browser,
  request,
}) => {
  const gia = await newStudent(request, 'Gia');
  const hal = await newStudent(request, 'Hal');
  const giaNick = `gia${Date.now() % 100000}`;
  const halNick = `hal${Date.now() % 100000}`;
  const g = await signedIn(browser, gia);
  const h = await signedIn(browser, hal);

  await g.page.goto('/confessions');
  await chooseNickname(g.page, giaNick);
  await g.page.getByRole('button', { name: 'Post Confession' }).click();
  await g.page.getByLabel('Your confession').fill('This exam was shit and I studied all week');
  await g.page.getByRole('button', { name: 'Post', exact: true }).click();
  const confirm = g.page.getByRole('alertdialog');
  await expect(confirm).toContainText('Your confession contains words that will be censored.');
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await expect(card(g.page, giaNick)).toContainText('This exam was **** and I studied all week');

  await h.page.goto('/confessions');
  await chooseNickname(h.page, halNick);
  const seen = card(h.page, giaNick);
  await expect(seen).toContainText('This exam was ****');
  await expect(seen).not.toContainText('shit');
  await seen.getByText('This exam was').dblclick();
  await expect(seen.getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'true');
  await seen.getByRole('button', { name: /Comment/ }).click();
  await h.page.getByLabel('Add a comment').fill('Same, good luck!');
  await h.page.getByLabel('Add a comment').press('Enter');
  await expect(h.page.getByRole('list', { name: 'Comments' })).toContainText('Same, good luck!');

  // Gia's bell rises live, the panel lists both, and a click opens the confession highlighted.
  await expect(bellBadge(g.page)).toContainText('2');
  await g.page.getByRole('button', { name: 'Notifications' }).click();
  const panel = g.page.getByRole('dialog').filter({ has: g.page.getByLabel('Search notifications...') });
  await expect(panel.getByText('New reaction')).toBeVisible();
  await expect(panel.getByText('New comment')).toBeVisible();
  await panel.getByText('New comment').click();
  await expect(g.page).toHaveURL(/\/confessions\?confessionId=/);
  await expect(card(g.page, giaNick)).toHaveAttribute('data-highlighted', 'true');
  await expect(bellBadge(g.page)).toContainText('1');

  await g.context.close();
  await h.context.close();
});

test('offline: a reaction, a comment and a post wait and arrive once; the feed opens from the cache', async ({
  browser,
  request,
}) => {
  const ivy = await newStudent(request, 'Ivy');
  const jon = await newStudent(request, 'Jon');
  const ivyNick = `ivy${Date.now() % 100000}`;
  const jonNick = `jon${Date.now() % 100000}`;
  const i = await signedIn(browser, ivy);
  const j = await signedIn(browser, jon);

  await i.page.goto('/confessions');
  await chooseNickname(i.page, ivyNick);
  await i.page.getByRole('button', { name: 'Post Confession' }).click();
  await i.page.getByLabel('Your confession').fill('I still do not know where building C is');
  await i.page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(card(i.page, ivyNick)).toBeVisible();

  await j.page.goto('/confessions');
  await chooseNickname(j.page, jonNick);
  await expect(card(j.page, ivyNick)).toBeVisible();
  await j.page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await j.context.setOffline(true);
  await expect(j.page.getByText('Not connected. Messages may not send or receive.')).toBeVisible();
  const offlineCard = card(j.page, ivyNick);
  await offlineCard.getByRole('button', { name: /Funny/ }).click();
  await offlineCard.getByRole('button', { name: /Comment/ }).click();
  await j.page.getByLabel('Add a comment').fill('It is behind the library');
  await j.page.getByLabel('Add a comment').press('Enter');
  await expect(j.page.getByRole('list', { name: 'Comments' })).toContainText('It is behind the library');
  await j.page.keyboard.press('Escape');
  await i.page.waitForTimeout(1500);
  await expect(bellBadge(i.page)).toHaveCount(0);

  // A confession written offline waits in the outbox and shows from the cache.
  await j.page.getByRole('button', { name: 'Post Confession' }).click();
  await j.page.getByLabel('Your confession').fill('Written in the tunnel');
  await j.page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(card(j.page, jonNick)).toContainText('Written in the tunnel');

  // Reloaded while offline, the feed shows the saved cards.
  await j.page.reload();
  await expect(card(j.page, ivyNick)).toContainText('building C');
  await expect(card(j.page, jonNick)).toContainText('Written in the tunnel');

  await j.context.setOffline(false);
  await expect(bellBadge(i.page)).toContainText('2', { timeout: 20_000 });
  await i.page.getByRole('button', { name: 'Notifications' }).click();
  const panel = i.page.getByRole('dialog').filter({ has: i.page.getByLabel('Search notifications...') });
  await expect(panel.getByText('New reaction')).toHaveCount(1);
  await expect(panel.getByText('New comment')).toHaveCount(1);
  await i.page.waitForTimeout(1500);
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await i.page.keyboard.press('Escape');
  await i.page.reload();
  await expect(card(i.page, jonNick)).toHaveCount(1);
  await expect(card(i.page, jonNick)).toContainText('Written in the tunnel');

  await i.context.close();
  await j.context.close();
});
