import { expect, test, type Page } from '@playwright/test';
import { newStudent, signedIn, type Student } from './chat-support';
import { turnServerPath } from './turn';
import { FAKE_MEDIA, inboundStats, recordPeerConnections } from './webrtc';

/**
 * Friends and calls between two students in two browser contexts, with Chromium's fake microphone and
 * camera (a tone and a test pattern) and permission granted as a student clicking Allow would. Every
 * RTCPeerConnection a page makes is remembered (an init script), so the test reads the real getStats().
 */
test.use(FAKE_MEDIA);

async function befriend(a: { page: Page }, b: { page: Page }, bStudent: Student): Promise<void> {
  await a.page.goto(`/chat/${bStudent.id}`);
  await a.page.getByRole('button', { name: 'Add Friend' }).click();
  await expect(a.page.getByRole('button', { name: 'Request sent' })).toBeVisible();
  // The push link of a friend request opens the modal.
  await b.page.goto('/talk?friendRequests=1');
  const modal = b.page.getByRole('dialog', { name: 'Friend requests' });
  await modal.getByRole('button', { name: 'Accept' }).click();
  await expect(modal.getByText('No friend requests')).toBeVisible();
  await b.page.keyboard.press('Escape');
}

/** Calls `friend` from the caller's Friends screen and waits for the outgoing overlay. */
async function call(caller: Page, friend: Student, kind: 'audio' | 'video'): Promise<void> {
  await caller.goto('/friends');
  const row = caller.getByRole('listitem').filter({ hasText: `${friend.firstName} Test` });
  await row.getByRole('button', { name: kind === 'audio' ? /audio call/i : /video call/i }).click();
  await expect(caller.getByText(`Calling ${friend.firstName} Test…`)).toBeVisible();
}

test('friends, then audio, video and rejected calls between two students, with both call histories', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const ana = await newStudent(request, 'Ana');
  const ben = await newStudent(request, 'Ben');
  const a = await signedIn(browser, ana);
  const b = await signedIn(browser, ben);
  await a.context.addInitScript(recordPeerConnections);
  await b.context.addInitScript(recordPeerConnections);
  await befriend(a, b, ben);
  await b.page.goto('/talk');

  // Audio: Ben's prompt names Ana and the kind; both reach Live, and each hears the other.
  await call(a.page, ben, 'audio');
  const prompt = b.page.getByRole('alertdialog', { name: /Ana Test/ });
  await expect(prompt).toContainText('Audio Call');
  await prompt.getByRole('button', { name: 'Accept' }).click();
  for (const side of [a.page, b.page]) {
    await expect(side).toHaveURL(/\/call$/);
    await expect(side.getByTestId('call-status')).toHaveText('Live', { timeout: 20_000 });
  }
  for (const side of [a.page, b.page]) {
    await expect
      .poll(async () => (await inboundStats(side)).audioBytes, { timeout: 15_000 })
      .toBeGreaterThan(2000);
  }

  // Mute: Ben stops receiving Ana's sound energy (the fake microphone's tone), and gets it back after unmute.
  const energyOver = async (ms: number) => {
    const before = (await inboundStats(b.page)).audioEnergy;
    await b.page.waitForTimeout(ms);
    return (await inboundStats(b.page)).audioEnergy - before;
  };
  await expect.poll(() => energyOver(1500), { timeout: 15_000 }).toBeGreaterThan(0);
  await a.page.getByRole('button', { name: 'Mute' }).click();
  await expect(a.page.getByRole('button', { name: 'Unmute' })).toBeVisible();
  await expect.poll(() => energyOver(1500), { timeout: 15_000 }).toBeLessThan(1e-6);
  await a.page.getByRole('button', { name: 'Unmute' }).click();
  await expect.poll(() => energyOver(1500), { timeout: 15_000 }).toBeGreaterThan(0);

  // End on Ana's side closes both.
  await a.page.getByRole('button', { name: 'End call' }).click();
  for (const side of [a.page, b.page]) await expect(side).not.toHaveURL(/\/call$/, { timeout: 10_000 });

  // Video: Ben sees Ana's camera playing.
  await call(a.page, ben, 'video');
  const videoPrompt = b.page.getByRole('alertdialog', { name: /Ana Test/ });
  await expect(videoPrompt).toContainText('Video Call');
  await videoPrompt.getByRole('button', { name: 'Accept' }).click();
  await expect(b.page).toHaveURL(/\/call$/);
  const remote = b.page.getByTestId('remote-video');
  await expect
    .poll(
      () =>
        remote.evaluate(
          (v: HTMLVideoElement) => !v.paused && v.readyState >= 2 && v.videoWidth > 0 && v.currentTime > 0,
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect
    .poll(async () => (await inboundStats(b.page)).framesDecoded, { timeout: 15_000 })
    .toBeGreaterThan(10);
  await b.page.getByRole('button', { name: 'End call' }).click();
  for (const side of [a.page, b.page]) await expect(side).not.toHaveURL(/\/call$/, { timeout: 10_000 });

  // Rejected: Ana's overlay says so.
  await call(a.page, ben, 'audio');
  await b.page
    .getByRole('alertdialog', { name: /Ana Test/ })
    .getByRole('button', { name: 'Reject' })
    .click();
  await expect(a.page.getByText('Call Rejected')).toBeVisible();

  // Both histories list the three calls, newest first: the rejected one as Missed.
  for (const [side, other] of [
    [a.page, 'Ben Test'],
    [b.page, 'Ana Test'],
  ] as const) {
    await side.goto('/call-history');
    const rows = side.getByRole('listitem').filter({ hasText: other });
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('Missed');
    await expect(rows.nth(0)).toContainText('--:--');
    await expect(rows.nth(1)).not.toContainText('Missed');
    await expect(rows.nth(2)).not.toContainText('Missed');
  }

  await a.context.close();
  await b.context.close();
});

test('a call through a real TURN relay (coturn, use-auth-secret credentials from the server)', async ({
  browser,
  request,
}) => {
  // scripts/test.sh installs coturn (scripts/bootstrap.sh --with-browser): a missing one fails, never skips.
  expect(
    turnServerPath(),
    'coturn (turnserver) must be installed: run scripts/bootstrap.sh --with-browser',
  ).not.toBeNull();
  test.setTimeout(90_000);
  const cy = await newStudent(request, 'Cy');
  const di = await newStudent(request, 'Di');
  const c = await signedIn(browser, cy);
  const d = await signedIn(browser, di);
  for (const side of [c, d]) {
    await side.context.addInitScript(recordPeerConnections);
    // Only relay candidates: the call must go through coturn or not at all.
    await side.context.addInitScript(() => localStorage.setItem('campus-talk:ice-policy', 'relay'));
  }
  await befriend(c, d, di);
  await d.page.goto('/talk');
  await call(c.page, di, 'audio');
  await d.page
    .getByRole('alertdialog', { name: /Cy Test/ })
    .getByRole('button', { name: 'Accept' })
    .click();
  for (const side of [c.page, d.page]) {
    await expect(side.getByTestId('call-status')).toHaveText('Live', { timeout: 20_000 });
    await expect
      .poll(async () => inboundStats(side), { timeout: 20_000 })
      .toMatchObject({ relay: true, audioBytes: expect.any(Number) });
    await expect
      .poll(async () => (await inboundStats(side)).audioBytes, { timeout: 15_000 })
      .toBeGreaterThan(2000);
  }
  await c.page.getByRole('button', { name: 'End call' }).click();
  await c.context.close();
  await d.context.close();
});
