import { expect, test } from '@playwright/test';
import { DEMO, codeFromMailbox, freshEmail, logIn } from './support';

test('a new student signs up with a mailed code, skips the upload for now, reaches Talk and logs out', async ({
  page,
  request,
}) => {
  const email = freshEmail('newbie');
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Nadia Okafor');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret12');
  await page.getByRole('button', { name: 'Sign up' }).click();

  await expect(page.getByText('Entered wrong email? Go back.')).toBeVisible();
  await page.getByLabel('Verification code').fill(await codeFromMailbox(request, email));
  await page.getByRole('button', { name: 'Verify' }).click();

  await expect(page).toHaveURL(/\/upload-document$/);
  await page.getByRole('button', { name: "I'll do this later" }).click();
  await expect(page).toHaveURL(/\/talk$/);
  await expect(page.getByText('Hi Nadia')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Admin Page' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/talk');
  await expect(page).toHaveURL(/\/login$/);
});

test('signup shows the validation messages of the spec before calling the server', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('alert')).toHaveText('All fields (Name, Email, Password) are required.');
  await page.getByLabel('Full name').fill('Nadia Okafor');
  await page.getByLabel('Email').fill('nadia@');
  await page.getByLabel('Password', { exact: true }).fill('secret12');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address.');
});

test('a guarded deep link goes to login and returns there after signing in', async ({ page }) => {
  await page.goto('/confessions?confessionId=abc');
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, DEMO.student.email, DEMO.student.password);
  await expect(page).toHaveURL(/\/confessions\?confessionId=abc$/);
});

test('wrong credentials show the server error', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, DEMO.student.email, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
});

test('forgot password: request a code, reset, return to login with the e-mail filled in', async ({
  page,
  request,
}) => {
  const email = freshEmail('forgetful');
  // Create the account through the API the UI uses, then forget its password in the UI.
  await request.post('/api/auth/signup', {
    data: { firstName: 'Fern', lastName: 'Gully', email, password: 'first-pass', phoneNumber: '' },
  });
  const signupCode = await codeFromMailbox(request, email);
  expect(
    (await request.post('/api/auth/verify-otp', { data: { email, otpCode: signupCode } })).status(),
  ).toBe(201);

  await page.goto('/login');
  await page.getByText('Forgot password?').click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();

  let resetCode = signupCode;
  await expect.poll(async () => (resetCode = await codeFromMailbox(request, email))).not.toBe(signupCode);
  await page.getByLabel('Verification code').fill(resetCode);
  await page.getByLabel('New password', { exact: true }).fill('second-pass');
  await page.getByLabel('Confirm new password').fill('second-pass');
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 5000 });
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill('second-pass');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/talk$/);
  await expect(page.getByText('Hi Fern')).toBeVisible();
});

test('the theme survives a reload', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, DEMO.student.email, DEMO.student.password);
  await expect(page).toHaveURL(/\/talk$/);
  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  const toggle = page.getByRole('button', { name: /Switch to (dark|light) theme/ });
  await toggle.click();
  const after = before === 'dark' ? 'light' : 'dark';
  await expect(html).toHaveAttribute('data-theme', after);
  await page.reload();
  await expect(page.getByText('Hi Alex')).toBeVisible();
  await expect(html).toHaveAttribute('data-theme', after);
});

test('an admin sees the Admin Page button and reaches the review; a student does not', async ({
  page,
  browser,
}) => {
  await page.goto('/login');
  await logIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page.getByText('Hi Ada')).toBeVisible();
  await page.getByRole('button', { name: 'Admin Page' }).click();
  await expect(page).toHaveURL(/\/admin\/documents$/);

  const student = await browser.newContext();
  const studentPage = await student.newPage();
  await studentPage.goto('/login');
  await logIn(studentPage, DEMO.student.email, DEMO.student.password);
  await expect(studentPage.getByText('Hi Alex')).toBeVisible();
  await expect(studentPage.getByRole('button', { name: 'Admin Page' })).toHaveCount(0);
  await studentPage.goto('/admin/documents');
  await expect(studentPage).toHaveURL(/\/talk$/);
  await student.close();
});

test('a rejected document answers with the spec message and an upload-again button', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, DEMO.rejected.email, DEMO.rejected.password);
  await expect(page.getByRole('alert')).toContainText('Your document was rejected. Please upload again.');
  await page.getByRole('button', { name: /upload again/i }).click();
  await expect(page).toHaveURL(/\/upload-document$/);
});
