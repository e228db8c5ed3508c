import { expect, test } from '@playwright/test';
import { chromiumLaunch } from './chromium';
import { codeFromMailbox, freshEmail } from './support';
import { CAMERA_STUDENT, FAKE_CAMERA_FILE } from './global-setup';

/**
 * Take Photo with a camera: Chromium's fake camera plays a generated student ID (written by global-setup),
 * and permission is granted as a student clicking Allow would.
 */
test.use({
  permissions: ['camera'],
  launchOptions: chromiumLaunch([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${FAKE_CAMERA_FILE}`,
  ]),
});

test('a student takes a photo of the ID with the camera and submits it', async ({ page }) => {
  test.setTimeout(90_000);
  const email = freshEmail('kiran');
  await page.goto('/signup');
  await page.getByLabel('Full name').fill(`${CAMERA_STUDENT} Pratama`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('verify-pass-1');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Verification code').fill(await codeFromMailbox(page.request, email));
  await page.getByRole('button', { name: /verify/i }).click();
  await expect(page).toHaveURL(/\/upload-document$/);

  await page.getByRole('button', { name: 'Take Photo' }).click();
  const camera = page.getByRole('dialog', { name: 'Take Photo' });
  await expect(camera.getByLabel('Camera preview')).toBeVisible();
  await camera.getByRole('button', { name: 'Capture' }).click();
  await expect(camera).toHaveCount(0);
  await expect(page.getByText('Everything we need is readable.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Document submitted!')).toBeVisible();
  await expect(page).toHaveURL(/\/talk$/, { timeout: 10_000 });
  await page.goto('/profile');
  await expect(page.getByText('Verification Pending')).toBeVisible();
});
