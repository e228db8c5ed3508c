import { expect, test, type Page } from '@playwright/test';
import { newStudent, signedIn } from './chat-support';

async function chooseNickname(page: Page, nickname: string) {
  await page.getByRole('button', { name: 'Choose nickname' }).click();
  await page.getByLabel('Nickname', { exact: true }).fill(nickname);
  await expect(page.getByRole('status').filter({ hasText: 'available' })).toBeVisible();
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Choose nickname' })).toHaveCount(0);
}

/** The card showing `text` (every post here is by the same nickname). */
function card(page: Page, text: string) {
  return page.getByRole('feed').getByRole('article').filter({ hasText: text });
}

const likeButton = (page: Page, text: string) => card(page, text).getByRole('button', { name: /^Like/ });

/** Posts through the composer and waits until the server has it (the card's 'Posting…' clock is gone). */
async function post(page: Page, text: string) {
  await page.getByRole('button', { name: 'Post Confession' }).click();
  await page.getByLabel('Your confession').fill(text);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(card(page, text)).toBeVisible();
  await expect(card(page, text).getByRole('img', { name: 'Posting…' })).toHaveCount(0);
}

async function remove(page: Page, text: string) {
  await card(page, text).getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete confession' });
  await expect(confirm).toContainText('Are you sure you want to delete this confession?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, text)).toHaveCount(0);
}

test('posts, likes and deletions reach another student live, and after being offline with one pull', async ({
  browser,
  request,
}) => {
  const kim = await newStudent(request, 'Kim');
  const lou = await newStudent(request, 'Lou');
  const stamp = Date.now() % 100000;
  const a = await signedIn(browser, kim);
  const b = await signedIn(browser, lou);

  await a.page.goto('/confessions');
  await chooseNickname(a.page, `kim${stamp}`);
  await b.page.goto('/confessions');
  await chooseNickname(b.page, `lou${stamp}`);
  // B's feed is open and stays open: nothing below reloads it.
  await b.page.evaluate(() => {
    (window as { notReloaded?: boolean }).notReloaded = true;
  });

  // A posts: the card appears in B's feed by itself.
  const first = `Live ${stamp}: I sing in the library stairwell`;
  await post(a.page, first);
  await expect(card(b.page, first)).toBeVisible();

  // B likes it: A's count moves live.
  await likeButton(b.page, first).click();
  await expect(likeButton(b.page, first)).toHaveAttribute('aria-pressed', 'true');
  await expect(likeButton(a.page, first)).toContainText('1');
  await expect(likeButton(a.page, first)).toHaveAttribute('aria-pressed', 'false');

  // A deletes it: B's card goes.
  await remove(a.page, first);
  await expect(card(b.page, first)).toHaveCount(0);

  // Two more cards B sees before going offline: one to like, one to delete while B is away.
  const liked = `Live ${stamp}: the vending machine owes me 40 rupees`;
  const doomed = `Live ${stamp}: I have never been to the gym I pay for`;
  await post(a.page, liked);
  await post(a.page, doomed);
  await expect(card(b.page, liked)).toBeVisible();
  await expect(card(b.page, doomed)).toBeVisible();
  await expect(likeButton(b.page, liked)).toContainText('0');

  await b.context.setOffline(true);
  await expect(b.page.getByText('Not connected. Messages may not send or receive.')).toBeVisible();
  const away = `Live ${stamp}: written while Lou was offline`;
  await post(a.page, away);
  await likeButton(a.page, liked).click();
  await expect(likeButton(a.page, liked)).toHaveAttribute('aria-pressed', 'true');
  await remove(a.page, doomed);
  // Not before B is back: B's feed still shows what it had.
  await b.page.waitForTimeout(1500);
  await expect(card(b.page, away)).toHaveCount(0);
  await expect(card(b.page, doomed)).toBeVisible();

  // Back online: one pull brings all three, with no reload.
  await b.context.setOffline(false);
  await expect(b.page.getByText('Not connected. Messages may not send or receive.')).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(card(b.page, away)).toBeVisible();
  await expect(likeButton(b.page, liked)).toContainText('1');
  await expect(card(b.page, doomed)).toHaveCount(0);
  expect(await b.page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await a.context.close();
  await b.context.close();
});
