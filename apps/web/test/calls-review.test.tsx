import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CALL, CALL_MSG } from '@campus/protocol';
import { forStrangers } from '../src/features/calls/rtc-config';
import {
  ANSWER,
  callWorld,
  fakeStream,
  incomingOffer,
  OFFER,
  renderCalls,
  SAM,
  settle,
  type CallWorld,
} from './calls-kit';

/** Defects a review of the call layer found; each test failed before its fix. */
afterEach(() => {
  vi.useRealTimers();
});

async function callSam(world: CallWorld, kind: 'Audio' | 'Video' = 'Audio') {
  await world.client.db.friends.put(SAM);
  renderCalls(world, ['/talk', '/friends']);
  fireEvent.click(await screen.findByRole('button', { name: `${kind} call Sam Lee` }));
  await waitFor(() => expect(world.peers).toHaveLength(1));
  act(() => world.lastPeer().events.onSignal(OFFER));
  const frame = world.client.callFrames.at(-1);
  if (frame?.type !== 'call:offer') throw new Error('no offer was sent');
  return frame.callId;
}

describe('the call layer after review', () => {
  it('a call goes on audibly when the student leaves /call, with a bar back to it and End', async () => {
    const world = callWorld();
    const callId = await callSam(world);
    act(() => world.client.emitCallFrame({ type: 'call:answer', callId, from: SAM.id, signal: ANSWER }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/call'));
    const remote = fakeStream(['audio']);
    act(() => world.lastPeer().events.onStream(remote));
    expect(screen.queryByRole('complementary', { name: 'Call in progress' })).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Go to Talk' }));
    const bar = await screen.findByRole('complementary', { name: 'Call in progress' });
    expect(within(bar).getByText('Sam Lee')).toBeTruthy();
    expect((screen.getByTestId('call-bar-audio') as HTMLAudioElement).srcObject).toBe(remote);
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'live')).toBe(true);

    fireEvent.click(within(bar).getByRole('link', { name: 'Return to call' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/call'));
    fireEvent.click(screen.getByRole('link', { name: 'Go to Talk' }));
    fireEvent.click(
      within(await screen.findByRole('complementary', { name: 'Call in progress' })).getByRole('button', {
        name: 'End call',
      }),
    );
    expect(world.client.callFrames.at(-1)).toEqual({ type: 'call:end', callId, to: SAM.id, reason: 'ended' });
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
    expect(screen.queryByRole('complementary', { name: 'Call in progress' })).toBeNull();
  });

  it('a call cancelled while the microphone prompt is up never asks for the camera', async () => {
    const world = callWorld();
    await world.client.db.friends.put(SAM);
    let allowMicrophone: (granted: boolean) => void = () => undefined;
    renderCalls(world, ['/talk', '/friends'], {
      requestMediaPermission: (kind) => {
        world.permissions.push(kind);
        return kind === 'microphone'
          ? new Promise<boolean>((resolve) => (allowMicrophone = resolve))
          : Promise.resolve(true);
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Video call Sam Lee' }));
    await waitFor(() => expect(world.permissions).toEqual(['microphone']));
    fireEvent.click(within(screen.getByTestId('call-overlay')).getByRole('button', { name: 'Cancel' }));
    await act(async () => {
      allowMicrophone(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(world.permissions).toEqual(['microphone']);
    expect(world.getUserMedia).not.toHaveBeenCalled();
    expect(world.peers).toHaveLength(0);
  });

  it('a caller whose call the server never ends stops waiting after the ring time and the grace', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = callWorld();
    const callId = await callSam(world);
    await settle(CALL.ringTimeoutMs + CALL.reconnectGraceMs - 1000);
    expect(screen.getByRole('dialog', { name: 'Calling Sam Lee…' })).toBeTruthy();
    await settle(1000);
    expect(within(screen.getByTestId('call-overlay-status')).getByText(CALL_MSG.noAnswer)).toBeTruthy();
    expect(world.client.callFrames.at(-1)).toEqual({ type: 'call:end', callId, to: SAM.id, reason: 'ended' });
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('an offer the server refused before the call logic (message_error) ends the call with its reason', async () => {
    const world = callWorld();
    await callSam(world);
    await world.client.emitError({
      type: 'message_error',
      code: 'rateLimited',
      error: 'You are sending messages too fast. Please slow down.',
      context: 'call:offer',
    });
    expect(
      within(await screen.findByTestId('call-overlay-status')).getByText(
        'You are sending messages too fast. Please slow down.',
      ),
    ).toBeTruthy();
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('an incoming call takes focus on its title, not on Accept: an Enter meant for the composer answers nothing', () => {
    const world = callWorld();
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer('video')));
    const prompt = screen.getByRole('alertdialog', { name: 'Sam Lee' });
    expect(document.activeElement).toBe(within(prompt).getByRole('heading', { name: 'Sam Lee' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(world.getUserMedia).not.toHaveBeenCalled();
    expect(world.client.callFrames).toEqual([]);
  });
});

describe('ICE for strangers', () => {
  it('relay only when the server hands out TURN; without it host candidates only, never STUN (one LAN)', () => {
    const turn = {
      iceServers: [{ urls: ['stun:t.test', 'turn:t.test:3478'] }],
      iceTransportPolicy: 'all' as const,
    };
    expect(forStrangers(turn).iceTransportPolicy).toBe('relay');
    const stunOnly = { iceServers: [{ urls: 'stun:t.test' }], iceTransportPolicy: 'all' as const };
    expect(forStrangers(stunOnly).iceTransportPolicy).toBe('all');
    // A STUN server would hand the stranger each side's public address.
    expect(forStrangers(stunOnly).iceServers).toEqual([]);
    expect(forStrangers({ iceServers: [], iceTransportPolicy: 'all' }).iceTransportPolicy).toBe('all');
  });
});
