import { expect, test, type Browser, type Page } from '@playwright/test';
import { codeFromMailbox, DEMO, freshEmail, logIn } from './support';
import { idCardFile } from './id-card';

/**
 * Student-ID verification end to end (issue 11): a newcomer signs up, completes the profile with the
 * college picker, uploads a generated ID that the server's text recognition reads, waits in
 * 'Verification Pending' with posting locked; an admin verifies it in /admin/documents and the student's
 * badge and access change live, without a reload. A rejected student sees the reason and uploads again.
 */

async function signUp(page: Page, firstName: string): Promise<string> {
  const email = freshEmail(firstName.toLowerCase());
  await page.goto('/signup');
  await page.getByLabel('Full name').fill(`${firstName} Pratama`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('verify-pass-1');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Verification code').fill(await codeFromMailbox(page.request, email));
  await page.getByRole('button', { name: /verify/i }).click();
  await expect(page).toHaveURL(/\/upload-document$/);
  return email;
}

async function uploadId(page: Page, firstName: string, seed: number): Promise<void> {
  await page.goto('/upload-document');
  const card = await idCardFile(firstName, seed);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles({ name: card.name, mimeType: card.mimeType, buffer: card.buffer });
  // The server's text recognition read the card: the detected fields are shown, nothing to fix.
  const detected = page.getByRole('list', { name: 'Detected fields' }).or(page.getByLabel('Detected fields'));
  await expect(detected).toContainText(card.fields.nim, { timeout: 30_000 });
  await expect(page.getByText('Everything we need is readable.')).toBeVisible();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Document submitted!')).toBeVisible();
  await expect(page).toHaveURL(/\/talk$/, { timeout: 10_000 });
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/login');
  await logIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/talk$/);
  await page.goto('/admin/documents');
  return page;
}

test('a new student completes the profile, uploads the ID, and is verified live by an admin', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUp(page, 'Rina');

  // Profile: the college picker (India first: a state, then search by city), course and year.
  await page.goto('/profile');
  await expect(page.getByText('Document Submission Pending')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(page.getByLabel('Country')).toHaveValue('IN');
  await page.getByLabel('State').selectOption({ label: 'Maharashtra' });
  await page.getByLabel('Search colleges').fill('Pune');
  const suggestions = page.getByRole('listbox', { name: 'College suggestions' });
  await expect(suggestions.getByRole('option').first()).toBeVisible();
  expect(await suggestions.getByRole('option').count()).toBeLessThanOrEqual(10);
  const college = (await suggestions.getByRole('option').first().innerText()).split('\n')[0]!.trim();
  await suggestions.getByRole('option').first().click();
  await page.getByLabel('Course / Major').fill('Computer Science');
  await page.getByLabel('Year of Study').fill('2');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated!')).toBeVisible();
  await expect(page.getByText(college).first()).toBeVisible();

  // Posting is locked until verified, with the way to the upload page.
  await uploadId(page, 'Rina', 21);
  await page.goto('/profile');
  await expect(page.getByText('Verification Pending')).toBeVisible();
  await page.goto('/confessions');
  await expect(page.getByRole('note').first()).toContainText(/verified|review/i);

  // The admin verifies it in /admin/documents.
  const admin = await adminPage(browser);
  const item = admin.getByRole('article').filter({ hasText: 'Rina Pratama' });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Computer Science');
  await item.getByRole('button', { name: 'Verify' }).click();
  await expect(admin.getByRole('article').filter({ hasText: 'Rina Pratama' })).toHaveCount(0);

  // Live on the student's screen: the badge changes and posting opens, without a reload.
  await page.goto('/profile');
  await expect(page.getByText('Student ID Verified')).toBeVisible();
  await page
    .getByRole('link', { name: 'Confession' })
    .or(page.getByRole('button', { name: 'Confession' }))
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Post Confession' })).toBeEnabled();
  await expect(page.getByRole('note')).toHaveCount(0);
  await admin.context().close();
});

test('a rejected student sees the reason live and uploads again', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUp(page, 'Dewi');
  await uploadId(page, 'Dewi', 33);
  await page.goto('/profile');
  await expect(page.getByText('Verification Pending')).toBeVisible();

  const admin = await adminPage(browser);
  const item = admin.getByRole('article').filter({ hasText: 'Dewi Pratama' });
  await item.getByRole('button', { name: 'Reject' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel(/Reason/).fill('The photo is cut off. Please upload the whole card.');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(admin.getByRole('article').filter({ hasText: 'Dewi Pratama' })).toHaveCount(0);

  // The student's profile shows the decision and its reason live, and leads back to the upload.
  await expect(page.getByText('Document Rejected')).toBeVisible();
  await expect(page.getByText('The photo is cut off. Please upload the whole card.')).toBeVisible();
  await page
    .getByRole('button', { name: 'Re-upload Document' })
    .or(page.getByRole('link', { name: 'Re-upload Document' }))
    .click();
  await expect(page).toHaveURL(/\/upload-document$/);
  await uploadId(page, 'Dewi', 34);
  await page.goto('/profile');
  await expect(page.getByText('Verification Pending')).toBeVisible();

  // The admin sees both submissions and the rejection in the item's history.
  await admin.reload();
  const again = admin.getByRole('article').filter({ hasText: 'Dewi Pratama' });
  await expect(again).toContainText('The photo is cut off.');
  await admin.context().close();
});
