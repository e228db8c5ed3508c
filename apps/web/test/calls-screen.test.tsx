import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CALL, CALL_MSG } from '@campus/protocol';
import { runSignOutHooks } from '../src/features/session/sign-out-hooks';
import {
  ANSWER,
  CALL_ID,
  callWorld,
  fakeStream,
  incomingOffer,
  renderCalls,
  SAM,
  settle,
  type CallWorld,
} from './calls-kit';

/** Sam calls; this device accepts, lands on /call and answers. Fake timers from the start. */
async function inCall(world: CallWorld, callType: 'audio' | 'video' = 'audio') {
  renderCalls(world);
  act(() => world.client.emitCallFrame(incomingOffer(callType)));
  fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
  await settle();
  const peer = world.lastPeer();
  act(() => peer.events.onSignal(ANSWER));
  expect(screen.getByTestId('location').textContent).toBe('/call');
  return peer;
}

const status = () => screen.getByTestId('call-status').textContent;
const timer = () => screen.getByRole('timer', { name: 'Call duration' }).textContent;
const tracksStopped = (world: CallWorld) =>
  world.media.every((stream) => stream.tracks.every((t) => t.readyState === 'ended'));

describe('the call screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('audio: Connecting until the first second after the media connects, then Live, the timer ticking', async () => {
    const world = callWorld();
    const peer = await inCall(world);
    expect(screen.getByRole('heading', { name: 'Sam Lee' })).toBeTruthy();
    expect(status()).toBe(CALL_MSG.connecting);
    expect(timer()).toBe('00:00');
    await settle(5000);
    expect(status()).toBe(CALL_MSG.connecting); // nothing counts before the peer connects

    const remote = fakeStream(['audio']);
    act(() => {
      peer.events.onStream(remote);
      peer.events.onConnect();
    });
    expect((screen.getByTestId('remote-audio') as HTMLAudioElement).srcObject).toBe(remote);
    expect(status()).toBe(CALL_MSG.connecting);
    await settle(999);
    expect(timer()).toBe('00:00');
    await settle(1);
    expect(status()).toBe(CALL_MSG.live);
    expect(timer()).toBe('00:01');
    await settle(61_000);
    expect(timer()).toBe('01:02');
  });

  it('End hangs up: call:end goes out, every local track stops, the screen goes back', async () => {
    const world = callWorld();
    const peer = await inCall(world);
    fireEvent.click(screen.getByRole('button', { name: 'End call' }));
    expect(world.client.callFrames.at(-1)).toEqual({
      type: 'call:end',
      callId: CALL_ID,
      to: SAM.id,
      reason: 'ended',
    });
    expect(tracksStopped(world)).toBe(true);
    expect(peer.destroyed).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe('/talk');
    expect(screen.queryByTestId('call-overlay')).toBeNull();
  });

  it('video: controls hide after 3 s without activity and come back; mute and camera switch the tracks', async () => {
    const world = callWorld();
    await inCall(world, 'video');
    const local = world.media[0]!;
    expect((screen.getByTestId('local-video') as HTMLVideoElement).srcObject).toBe(local);
    expect((screen.getByTestId('local-video') as HTMLVideoElement).muted).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(local.tracks.find((t) => t.kind === 'audio')?.enabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(local.tracks.find((t) => t.kind === 'audio')?.enabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    fireEvent.click(screen.getByRole('button', { name: 'Camera off' }));
    expect(local.tracks.find((t) => t.kind === 'video')?.enabled).toBe(false);
    expect(local.tracks.find((t) => t.kind === 'audio')?.enabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Camera on' }));
    expect(local.tracks.find((t) => t.kind === 'video')?.enabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Fill screen' }));
    expect(screen.getByTestId('remote-video').className).toContain('call-video__remote--fill');
    fireEvent.click(screen.getByRole('button', { name: 'Fit video' }));
    expect(screen.getByTestId('remote-video').className).toContain('call-video__remote--fit');

    const stage = () => screen.getByTestId('remote-video').parentElement!.dataset.controls;
    fireEvent.pointerMove(screen.getByTestId('remote-video'));
    await settle(CALL.controlsHideMs - 1);
    expect(stage()).toBe('shown');
    await settle(1);
    expect(stage()).toBe('hidden');
    // Faded out, still reachable: focus (a Tab, a screen reader) brings them back.
    act(() => screen.getByRole('button', { name: 'End call' }).focus());
    expect(stage()).toBe('shown');
    await settle(CALL.controlsHideMs);
    expect(stage()).toBe('hidden');
    fireEvent.pointerMove(screen.getByTestId('remote-video'));
    expect(stage()).toBe('shown');
    await settle(CALL.controlsHideMs);
    expect(stage()).toBe('hidden');
    fireEvent.keyDown(document, { key: 'ArrowUp' });
    expect(stage()).toBe('shown');
  });

  it('the other side hanging up ends it quietly; a peer error ends it with the error shown', async () => {
    const world = callWorld();
    await inCall(world);
    act(() => world.client.emitCallFrame({ type: 'call:end', callId: CALL_ID, reason: 'ended' }));
    expect(screen.getByTestId('location').textContent).toBe('/talk');
    expect(screen.queryByTestId('call-overlay')).toBeNull();
    expect(tracksStopped(world)).toBe(true);

    act(() => world.client.emitCallFrame(incomingOffer('audio', SAM, crypto.randomUUID())));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await settle();
    const peer = world.lastPeer();
    act(() => peer.events.onSignal(ANSWER));
    act(() => peer.events.onError(new Error('Ice connection failed.')));
    expect(within(screen.getByTestId('call-overlay')).getByText('Ice connection failed.')).toBeTruthy();
    expect(world.client.callFrames.at(-1)).toMatchObject({ type: 'call:end', reason: 'failed' });
    expect(tracksStopped(world)).toBe(true);
  });

  it(`ICE disconnected longer than ${CALL.iceDisconnectedMs} ms ends the call; a shorter blip does not`, async () => {
    const world = callWorld();
    const peer = await inCall(world);
    act(() => peer.events.onIceState('disconnected'));
    await settle(CALL.iceDisconnectedMs - 1);
    act(() => peer.events.onIceState('connected'));
    await settle(CALL.iceDisconnectedMs);
    expect(screen.getByTestId('location').textContent).toBe('/call');

    act(() => peer.events.onIceState('disconnected'));
    await settle(CALL.iceDisconnectedMs);
    expect(within(screen.getByTestId('call-overlay')).getByText(CALL_MSG.unavailable)).toBeTruthy();
    expect(world.client.callFrames.at(-1)).toMatchObject({ type: 'call:end', reason: 'failed' });
    expect(tracksStopped(world)).toBe(true);
  });

  it('after the realtime connection drops, the call is claimed again with call:resume', async () => {
    const world = callWorld();
    await inCall(world);
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'connecting' }));
    expect(world.client.callFrames.at(-1)?.type).toBe('call:answer');
    act(() => world.client.setState({ status: 'online' }));
    expect(world.client.callFrames.at(-1)).toEqual({ type: 'call:resume', callId: CALL_ID });
    act(() => world.client.emitCallFrame({ type: 'call:resumed', callId: CALL_ID }));
    expect(screen.getByTestId('location').textContent).toBe('/call');

    // Too late: the server ended it meanwhile.
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'online' }));
    act(() => world.client.emitCallFrame({ type: 'call:end', callId: CALL_ID, reason: 'unknown' }));
    expect(within(screen.getByTestId('call-overlay')).getByText(CALL_MSG.unavailable)).toBeTruthy();
    expect(tracksStopped(world)).toBe(true);
  });

  it('signing out hangs up first', async () => {
    const world = callWorld();
    await inCall(world);
    act(() => runSignOutHooks());
    expect(world.client.callFrames.at(-1)).toMatchObject({ type: 'call:end', callId: CALL_ID });
    expect(tracksStopped(world)).toBe(true);
  });
});

describe('/call without a call', () => {
  it("says 'Unable to load call data'; Go Back returns where the user was", async () => {
    renderCalls(callWorld(), ['/friends', '/call']);
    expect(screen.getByRole('heading', { name: CALL_MSG.unableToLoad })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: CALL_MSG.goBack }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/friends'));
  });

  it('opened first (a notification click after the call ended), Go Back goes to Talk', async () => {
    renderCalls(callWorld(), ['/call']);
    fireEvent.click(screen.getByRole('button', { name: CALL_MSG.goBack }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/talk'));
  });
});
