import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CALL_MSG, REALTIME_TIMING } from '@campus/protocol';
import { ICE_POLICY_KEY } from '../src/features/calls/rtc-config';
import { ANSWER, callWorld, OFFER, RTC, renderCalls, SAM, type CallWorld } from './calls-kit';

afterEach(() => {
  localStorage.clear();
});

const overlay = () => screen.getByTestId('call-overlay');

/** Sam is a friend; the test calls him from his row on the Friends screen. */
async function callSam(world: CallWorld, kind: 'Audio' | 'Video' = 'Audio') {
  await world.client.db.friends.put(SAM);
  renderCalls(world, ['/talk', '/friends']);
  fireEvent.click(await screen.findByRole('button', { name: `${kind} call Sam Lee` }));
  return screen.findByTestId('call-overlay');
}

/** The peer was made and gathered its candidates: the offer goes out. */
async function offerSent(world: CallWorld) {
  await waitFor(() => expect(world.peers).toHaveLength(1));
  act(() => world.lastPeer().events.onSignal(OFFER));
  const frame = world.client.callFrames.at(-1);
  if (frame?.type !== 'call:offer') throw new Error('no offer was sent');
  return frame;
}

describe('outgoing call overlay', () => {
  it('calls a friend: microphone first, the server ICE config, the whole offer, then Cancel ends it', async () => {
    const world = callWorld();
    const dialog = await callSam(world);
    expect(screen.getByRole('dialog', { name: 'Calling Sam Lee…' })).toBe(dialog);
    expect(within(dialog).getByText('Audio Call')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));

    const offer = await offerSent(world);
    expect(world.permissions).toEqual(['microphone']);
    expect(world.getUserMedia).toHaveBeenCalledWith({ audio: true, video: false });
    const peer = world.lastPeer();
    expect(peer.options).toMatchObject({
      initiator: true,
      stream: world.media[0],
      rtc: { iceServers: RTC.iceServers, iceTransportPolicy: 'all' },
    });
    expect(offer).toMatchObject({ type: 'call:offer', to: SAM.id, callType: 'audio', signal: OFFER });

    fireEvent.click(within(overlay()).getByRole('button', { name: 'Cancel' }));
    expect(world.client.callFrames.at(-1)).toEqual({
      type: 'call:end',
      callId: offer.callId,
      to: SAM.id,
      reason: 'ended',
    });
    expect(screen.queryByTestId('call-overlay')).toBeNull();
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
    expect(peer.destroyed).toBe(true);
  });

  it('a second call asks for fresh ICE credentials (a call may outlast the first ones)', async () => {
    const world = callWorld();
    await callSam(world);
    await offerSent(world);
    fireEvent.click(within(overlay()).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Audio call Sam Lee' }));
    await waitFor(() => expect(world.peers).toHaveLength(2));
    expect(world.lastPeer().options.rtc.iceServers).toEqual(RTC.iceServers);
    expect(world.rtcRequests).toEqual(['/api/rtc/config', '/api/rtc/config']);
  });

  it('a video call asks for the camera too and can be forced through TURN relay by the test hook', async () => {
    localStorage.setItem(ICE_POLICY_KEY, 'relay');
    const world = callWorld();
    const dialog = await callSam(world, 'Video');
    expect(within(dialog).getByText('Video Call')).toBeTruthy();
    await waitFor(() => expect(world.peers).toHaveLength(1));
    expect(world.permissions).toEqual(['microphone', 'camera']);
    expect(world.getUserMedia).toHaveBeenCalledWith({ audio: true, video: true });
    expect(world.lastPeer().options.rtc.iceTransportPolicy).toBe('relay');
  });

  it("shows 'Call Rejected' when the callee rejects, with the tracks stopped", async () => {
    const world = callWorld();
    await callSam(world);
    const { callId } = await offerSent(world);
    act(() => world.client.emitCallFrame({ type: 'call:reject', callId, from: SAM.id }));
    expect(within(overlay()).getByText(CALL_MSG.rejected)).toBeTruthy();
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
    expect(world.lastPeer().destroyed).toBe(true);
    const sent = world.client.callFrames.length;
    fireEvent.click(within(overlay()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('call-overlay')).toBeNull();
    expect(world.client.callFrames).toHaveLength(sent);
  });

  it.each([
    ['refused', CALL_MSG.notAllowed, CALL_MSG.notAllowed],
    ['no_answer', undefined, CALL_MSG.noAnswer],
    ['busy', undefined, CALL_MSG.busy],
  ] as const)('shows why the server ended it (%s)', async (reason, error, shown) => {
    const world = callWorld();
    await callSam(world);
    const { callId } = await offerSent(world);
    act(() => world.client.emitCallFrame({ type: 'call:end', callId, reason, error }));
    expect(within(overlay()).getByTestId('call-overlay-status').textContent).toBe(shown);
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it('a microphone refusal shows its message and cancels: no media, no peer, nothing sent', async () => {
    const world = callWorld();
    world.denied.add('microphone');
    await callSam(world);
    await waitFor(() =>
      expect(within(overlay()).getByTestId('call-overlay-status').textContent).toBe(
        CALL_MSG.microphoneRequired,
      ),
    );
    expect(world.getUserMedia).not.toHaveBeenCalled();
    expect(world.peers).toHaveLength(0);
    expect(world.client.callFrames).toEqual([]);
    expect(within(overlay()).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('a camera refusal cancels a video call; the browser refusing shows its own words', async () => {
    const world = callWorld();
    world.denied.add('camera');
    await callSam(world, 'Video');
    await waitFor(() => expect(within(overlay()).getByText(CALL_MSG.cameraRequired)).toBeTruthy());
    fireEvent.click(within(overlay()).getByRole('button', { name: 'Close' }));

    world.denied.clear();
    world.getUserMedia.mockRejectedValueOnce(new DOMException('Requested device not found', 'NotFoundError'));
    fireEvent.click(screen.getByRole('button', { name: 'Audio call Sam Lee' }));
    await waitFor(() => expect(within(overlay()).getByText('Requested device not found')).toBeTruthy());
    expect(world.peers).toHaveLength(0);
    expect(world.client.callFrames).toEqual([]);
  });

  it('offline: says calls need a connection and sends nothing', async () => {
    const world = callWorld();
    world.client.setState({ status: 'offline' });
    await callSam(world);
    // The call is over at once: the overlay names Sam and says why.
    expect(screen.getByRole('dialog', { name: 'Sam Lee' })).toBe(overlay());
    expect(within(overlay()).getByText(CALL_MSG.notConnected)).toBeTruthy();
    expect(world.getUserMedia).not.toHaveBeenCalled();
    expect(world.client.callFrames).toEqual([]);
  });

  it('still connecting (the app just opened): the offer waits and goes out once the connection is up', async () => {
    const world = callWorld();
    world.client.setState({ status: 'connecting' });
    await callSam(world);
    expect(screen.getByRole('dialog', { name: 'Calling Sam Lee…' })).toBe(overlay());
    await waitFor(() => expect(world.peers).toHaveLength(1));
    act(() => world.lastPeer().events.onSignal(OFFER));
    expect(world.client.callFrames).toEqual([]);
    expect(within(overlay()).queryByText(CALL_MSG.notConnected)).toBeNull();

    act(() => world.client.setState({ status: 'online' }));
    expect(world.client.callFrames).toEqual([
      expect.objectContaining({ type: 'call:offer', to: SAM.id, callType: 'audio', signal: OFFER }),
    ]);
    expect(screen.getByRole('dialog', { name: 'Calling Sam Lee…' })).toBe(overlay());
  });

  it('still connecting, then the attempt fails: says calls need a connection, nothing sent', async () => {
    const world = callWorld();
    world.client.setState({ status: 'connecting' });
    await callSam(world);
    await waitFor(() => expect(world.peers).toHaveLength(1));
    act(() => world.lastPeer().events.onSignal(OFFER));
    act(() => world.client.setState({ status: 'offline' }));
    expect(within(overlay()).getByText(CALL_MSG.notConnected)).toBeTruthy();
    expect(world.lastPeer().destroyed).toBe(true);
    expect(world.media[0]!.tracks.every((t) => t.readyState === 'ended')).toBe(true);
    act(() => world.client.setState({ status: 'online' }));
    expect(world.client.callFrames).toEqual([]);
  });

  it('an offer the server has not answered goes again, marked `retry`, until the server answers it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const world = callWorld();
      await callSam(world);
      const offer = await offerSent(world);
      const offers = () => world.client.callFrames.filter((f) => f.type === 'call:offer');
      const retryMs = REALTIME_TIMING.unansweredRetryMs;
      act(() => {
        vi.advanceTimersByTime(retryMs - 100);
      });
      expect(offers()).toEqual([offer]);
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(offers()).toEqual([offer, { ...offer, retry: true }]);
      act(() => {
        vi.advanceTimersByTime(retryMs);
      });
      expect(offers()).toHaveLength(3);
      // Placed: nothing goes again, and the call still waits for Sam.
      act(() => world.client.emitCallFrame({ type: 'call:placed', callId: offer.callId }));
      act(() => {
        vi.advanceTimersByTime(3 * retryMs);
      });
      expect(offers()).toHaveLength(3);
      expect(screen.getByRole('dialog', { name: 'Calling Sam Lee…' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('Escape cancels the call', async () => {
    const world = callWorld();
    await callSam(world);
    const { callId } = await offerSent(world);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(world.client.callFrames.at(-1)).toMatchObject({ type: 'call:end', callId });
    expect(screen.queryByTestId('call-overlay')).toBeNull();
  });

  it("the callee's answer goes to the peer and opens /call", async () => {
    const world = callWorld();
    await callSam(world);
    const { callId } = await offerSent(world);
    act(() => world.client.emitCallFrame({ type: 'call:answer', callId, from: SAM.id, signal: ANSWER }));
    expect(world.lastPeer().received).toEqual([ANSWER]);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/call'));
    expect(screen.queryByTestId('call-overlay')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Sam Lee' })).toBeTruthy();
    // Frames of another call change nothing.
    act(() => world.client.emitCallFrame({ type: 'call:end', callId: crypto.randomUUID(), reason: 'ended' }));
    expect(screen.getByTestId('call-status').textContent).toBe(CALL_MSG.connecting);
  });
});
