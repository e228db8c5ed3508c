import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ACCESS_MSG, RANDOM_MSG } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import { randomWorld, renderRandom } from './random-kit';
import { fakeSyncFactory, renderWithSync, resetDatabase } from './sync-provider-fake';

afterEach(() => resetDatabase(student.id));

const SLOW = { timeout: 5000 };

describe('the Random Talk gate and options', () => {
  it('an unverified student with a complete profile is told why, with the way to upload the ID', async () => {
    mockServer(storeSessionFor({ ...student, documentStatus: 'pending_submission' }));
    renderWithSync('/talk', fakeSyncFactory().factory);
    fireEvent.click(await screen.findByRole('button', { name: /Random Talk/ }, SLOW));
    const dialog = screen.getByRole('dialog', { name: 'Random Talk' });
    expect(within(dialog).getByText(ACCESS_MSG.verificationRequired)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('link', { name: 'Upload your student ID' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(ACCESS_MSG.uploadPath));
  });

  it('a student whose ID is being reviewed sees that, and no way into the rooms', () => {
    const pending = { ...student, documentStatus: 'pending_verification' as const };
    renderRandom(randomWorld(), ['/random-talk-options'], pending);
    expect(screen.getByText(ACCESS_MSG.pendingVerification)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Random Audio Call/ })).toBeNull();
  });

  it('a verified student gets the three rooms and Focused Talk; Back to Talk goes home', () => {
    renderRandom(randomWorld(), ['/talk', '/random-talk-options']);
    for (const name of [/Random Audio Call/, /Random Video Call/, /Random Chat/, /Focused Talk/]) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: /Focused Talk/ }));
    expect(screen.getByTestId('location').textContent).toBe('/focused-talk');
    fireEvent.click(screen.getByRole('button', { name: 'Back to Talk' }));
    expect(screen.getByTestId('location').textContent).toBe('/talk');
  });

  it("choosing a call shows 'Finding someone for you...' while the microphone opens, then searches", async () => {
    const world = randomWorld();
    renderRandom(world, ['/talk', '/random-talk-options']);
    fireEvent.click(screen.getByRole('button', { name: /Random Video Call/ }));
    expect(screen.getByTestId('location').textContent).toBe('/random-video');
    expect(screen.getByText(RANDOM_MSG.findingSomeone)).toBeTruthy();
    expect(await screen.findByText(RANDOM_MSG.findingRandomUser)).toBeTruthy();
    expect(screen.queryByText(RANDOM_MSG.findingSomeone)).toBeNull();
    expect(world.client.randomSent('find-partner')).toEqual([{ type: 'find-partner', kind: 'video' }]);
  });

  it('choosing a chat searches at once', () => {
    const world = randomWorld();
    renderRandom(world, ['/talk', '/random-talk-options']);
    fireEvent.click(screen.getByRole('button', { name: /Random Chat/ }));
    expect(screen.getByTestId('location').textContent).toBe('/random-chat');
    expect(screen.getByText(RANDOM_MSG.findingMatch)).toBeTruthy();
    expect(world.client.randomFrames).toEqual([{ type: 'join-random' }]);
  });
});
