import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { CALL_MSG, RANDOM_MSG } from '@campus/protocol';
import { RANDOM_TEXT } from '../src/features/random/random-state';
import { ApiError } from '../src/lib/api';
import { ANSWER, OFFER, RTC } from './calls-kit';
import {
  BO,
  ROOM,
  randomWorld,
  renderRandom,
  serverSends,
  settle,
  tracksEnded,
  type RandomWorld,
} from './random-kit';

/** Start pressed, the microphone open and find-partner sent. */
async function finding(world: RandomWorld) {
  renderRandom(world, ['/talk', '/random-audio']);
  expect(screen.getByText(RANDOM_MSG.audioIdle)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startAudio }));
  await screen.findByText(RANDOM_MSG.findingMatch);
}

function partnerFound(world: RandomWorld, isInitiator: boolean, secondsLeft = 600, roomId = ROOM) {
  serverSends(world, {
    type: 'partner-found',
    roomId,
    kind: 'audio',
    isInitiator,
    partner: BO,
    endsAt: new Date(Date.now() + secondsLeft * 1000).toISOString(),
  });
}

describe('random audio call', () => {
  it('the initiator: microphone, find-partner, then its whole offer with call-user and the answer taken', async () => {
    const world = randomWorld();
    await finding(world);
    expect(world.permissions).toEqual(['microphone']);
    expect(world.getUserMedia).toHaveBeenCalledWith({ audio: true, video: false });
    expect(world.client.randomFrames).toEqual([{ type: 'find-partner', kind: 'audio' }]);

    partnerFound(world, true);
    expect(screen.getByTestId('random-partner').textContent).toContain('Bo');
    expect(screen.getByTestId('random-partner-college').textContent).toBe('IIT Delhi');
    expect(screen.getByText(RANDOM_MSG.beKind)).toBeTruthy();
    await waitFor(() => expect(world.peers).toHaveLength(1));
    const peer = world.lastPeer();
    expect(peer.options).toMatchObject({
      initiator: true,
      stream: world.media[0],
      // The server has TURN: a stranger's room goes through the relay only, so no address is exchanged.
      rtc: { iceServers: RTC.iceServers, iceTransportPolicy: 'relay' },
    });

    act(() => peer.events.onSignal(OFFER));
    expect(world.client.randomSent('call-user')).toEqual([
      { type: 'call-user', roomId: ROOM, signalData: OFFER },
    ]);
    // One offer per room (non-trickle: never a second description).
    act(() => peer.events.onSignal(OFFER));
    expect(world.client.randomSent('call-user')).toHaveLength(1);

    serverSends(world, { type: 'call-accepted', roomId: ROOM, signal: ANSWER });
    expect(peer.received).toEqual([ANSWER]);
    act(() => peer.events.onConnect());
    expect(screen.getByText('Connected')).toBeTruthy();
  });

  it('the other side answers the offer with answer-call', async () => {
    const world = randomWorld();
    await finding(world);
    partnerFound(world, false);
    // The offer may come before the peer is built: it is kept for it.
    serverSends(world, { type: 'incoming-call', roomId: ROOM, signal: OFFER });
    await waitFor(() => expect(world.peers).toHaveLength(1));
    const peer = world.lastPeer();
    expect(peer.options.initiator).toBe(false);
    expect(peer.received).toEqual([OFFER]);
    act(() => peer.events.onSignal(ANSWER));
    expect(world.client.randomSent('answer-call')).toEqual([
      { type: 'answer-call', roomId: ROOM, signal: ANSWER },
    ]);
    expect(world.client.randomSent('call-user')).toEqual([]);
  });

  it("counts 'free left' down from the server's deadline, and time_limit ends in the post-call screen with tracks stopped", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    await finding(world);
    partnerFound(world, true, 300);
    expect(screen.getByTestId('random-free-left').textContent).toBe(`05:00 ${RANDOM_MSG.freeLeft}`);
    await settle(61_000);
    expect(screen.getByTestId('random-free-left').textContent).toBe(`03:59 ${RANDOM_MSG.freeLeft}`);
    expect(screen.getByRole('timer', { name: 'Elapsed time' }).textContent).toBe('01:01');
    const peer = world.lastPeer();

    serverSends(world, { type: 'call-ended', roomId: ROOM, reason: 'time_limit' });
    expect(screen.getByText(RANDOM_MSG.greatChat)).toBeTruthy();
    expect(screen.getByText(RANDOM_MSG.timeLimit)).toBeTruthy();
    expect(tracksEnded(world.media[0]!)).toBe(true);
    expect(peer.destroyed).toBe(true);
    for (const name of ['Add Friend', RANDOM_MSG.startNewCall, 'Report', 'Block', RANDOM_MSG.backToHome]) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startNewCall }));
    expect(screen.getByRole('button', { name: RANDOM_MSG.startAudio })).toBeTruthy();
  });

  it('a deadline further than 10 minutes away (a skewed clock) still counts from 10:00', async () => {
    const world = randomWorld();
    await finding(world);
    partnerFound(world, true, 3600);
    expect(screen.getByTestId('random-free-left').textContent).toBe(`10:00 ${RANDOM_MSG.freeLeft}`);
  });

  it('Mute toggles the microphone; End sends end-call and stops every track', async () => {
    const world = randomWorld();
    await finding(world);
    partnerFound(world, true);
    await waitFor(() => expect(world.peers).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(world.media[0]!.tracks[0]!.enabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(world.media[0]!.tracks[0]!.enabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Add Friend' }));
    expect(world.client.randomSent('random-action')).toEqual([
      { type: 'random-action', roomId: ROOM, action: 'add-friend', block: false },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'End' }));
    expect(world.client.randomSent('end-call')).toEqual([{ type: 'end-call', roomId: ROOM }]);
    expect(tracksEnded(world.media[0]!)).toBe(true);
    expect(world.lastPeer().destroyed).toBe(true);
    expect(screen.getByText(RANDOM_MSG.greatChat)).toBeTruthy();
  });

  it('a refused microphone shows the message and queues nothing', async () => {
    const world = randomWorld();
    world.denied.add('microphone');
    renderRandom(world, ['/random-audio']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startAudio }));
    expect((await screen.findByTestId('random-error')).textContent).toContain(CALL_MSG.microphoneRequired);
    expect(world.client.randomFrames).toEqual([]);
    expect(world.getUserMedia).not.toHaveBeenCalled();
  });

  it('leaving while waiting for the microphone leaves the queue and stops the tracks it then gets', async () => {
    const world = randomWorld();
    let release!: () => void;
    const opened = new Promise<void>((resolve) => (release = resolve));
    const real = world.getUserMedia.getMockImplementation()!;
    world.getUserMedia.mockImplementation(async (constraints) => {
      await opened;
      return real(constraints);
    });
    const view = renderRandom(world, ['/random-audio']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startAudio }));
    expect(screen.getByText(RANDOM_MSG.findingSomeone)).toBeTruthy();
    await waitFor(() => expect(world.getUserMedia).toHaveBeenCalled());
    view.unmount();
    await act(async () => release());
    await waitFor(() => expect(world.media).toHaveLength(1));
    await waitFor(() => expect(tracksEnded(world.media[0]!)).toBe(true));
    expect(world.client.randomSent('find-partner')).toEqual([]);
  });

  it('arriving from the options screen starts the search at once', async () => {
    const world = randomWorld();
    renderRandom(world, ['/talk', '/random-talk-options']);
    fireEvent.click(screen.getByRole('button', { name: /Random Audio Call/ }));
    await waitFor(() => expect(world.client.randomSent('find-partner')).toHaveLength(1));
    expect(screen.getByTestId('location').textContent).toBe('/random-audio');
    expect(screen.getByText(RANDOM_MSG.findingMatch)).toBeTruthy();
  });
});

describe('the ICE servers of random rooms', () => {
  /** From the post-call screen: Start New Call, then Start, and the search is on again. */
  async function findAgain() {
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startNewCall }));
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startAudio }));
    await screen.findByText(RANDOM_MSG.findingMatch);
  }

  it('are fetched once for two rooms in a row: skipping through rooms does not use up the hourly limit', async () => {
    const world = randomWorld();
    await finding(world);
    partnerFound(world, true);
    await waitFor(() => expect(world.peers).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'End' }));

    await findAgain();
    partnerFound(world, false, 600, 'room-second');
    await waitFor(() => expect(world.peers).toHaveLength(2));
    expect(world.lastPeer().options.rtc).toEqual({ iceServers: RTC.iceServers, iceTransportPolicy: 'relay' });
    expect(world.rtcRequests).toEqual(['/api/rtc/config']);
  });

  it('that cannot be loaded (the hourly limit) end the room with the reason shown, not on "Connecting…"', async () => {
    const world = randomWorld();
    world.rtcError = new ApiError('http', 429, CALL_MSG.rateLimited, { error: CALL_MSG.rateLimited });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await finding(world);
    partnerFound(world, true);
    expect((await screen.findByTestId('random-error')).textContent).toBe(RANDOM_TEXT.mediaFailed);
    expect(warn).toHaveBeenCalledWith('[random] could not connect the media', world.rtcError);
    warn.mockRestore();
    expect(screen.queryByText('Connecting…')).toBeNull();
    expect(screen.getByText(RANDOM_MSG.greatChat)).toBeTruthy();
    // The partner is not left waiting on a room without media either.
    expect(world.client.randomSent('end-call')).toEqual([{ type: 'end-call', roomId: ROOM }]);
    expect(tracksEnded(world.media[0]!)).toBe(true);
    expect(world.peers).toEqual([]);

    // A failure is not kept: the next room asks again.
    world.rtcError = null;
    await findAgain();
    expect(screen.queryByTestId('random-error')).toBeNull();
    partnerFound(world, true, 600, 'room-second');
    await waitFor(() => expect(world.peers).toHaveLength(1));
    expect(world.rtcRequests).toEqual(['/api/rtc/config', '/api/rtc/config']);
    expect(screen.getByText('Connecting…')).toBeTruthy();
  });
});
