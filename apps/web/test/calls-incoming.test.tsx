import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ANSWER, CALL_ID, callWorld, incomingOffer, OFFER, RTC, renderCalls, SAM } from './calls-kit';

const prompt = () => screen.getByRole('alertdialog', { name: 'Sam Lee' });

describe('incoming call prompt', () => {
  it('shows who calls and how, rings, and Accept answers with the peer signal on /call', async () => {
    const world = callWorld();
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer('video')));
    expect(within(prompt()).getByText('Incoming Video Call')).toBeTruthy();
    expect(world.ringtone.playing).toBe(true);
    expect(world.notify).not.toHaveBeenCalled();

    fireEvent.click(within(prompt()).getByRole('button', { name: 'Accept' }));
    expect(world.ringtone.playing).toBe(false);
    await waitFor(() => expect(world.peers).toHaveLength(1));
    const peer = world.lastPeer();
    expect(world.permissions).toEqual(['microphone', 'camera']);
    expect(peer.options).toMatchObject({
      initiator: false,
      stream: world.media[0],
      rtc: { iceServers: RTC.iceServers, iceTransportPolicy: 'all' },
    });
    await waitFor(() => expect(peer.received).toEqual([OFFER]));
    // The layer moves to /call in an effect once the call is active, which may come a render later.
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/call'));
    expect(world.client.callFrames).toEqual([]);

    act(() => peer.events.onSignal(ANSWER));
    expect(world.client.callFrames).toEqual([
      { type: 'call:answer', callId: CALL_ID, to: SAM.id, signal: ANSWER },
    ]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // This device took it: the other devices' 'answered elsewhere' does not end it here.
    act(() =>
      world.client.emitCallFrame({ type: 'call:end', callId: CALL_ID, reason: 'answered_elsewhere' }),
    );
    expect(screen.getByTestId('remote-video')).toBeTruthy();
    expect(peer.destroyed).toBe(false);
  });

  it('Reject refuses the call and stops ringing', async () => {
    const world = callWorld();
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer()));
    expect(within(prompt()).getByText('Incoming Audio Call')).toBeTruthy();
    fireEvent.click(within(prompt()).getByRole('button', { name: 'Reject' }));
    expect(world.client.callFrames).toEqual([{ type: 'call:reject', callId: CALL_ID, to: SAM.id }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(world.ringtone.playing).toBe(false);
    expect(world.getUserMedia).not.toHaveBeenCalled();
  });

  it('stops ringing when another device answered, silently', () => {
    const world = callWorld();
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer()));
    expect(world.ringtone.playing).toBe(true);
    act(() =>
      world.client.emitCallFrame({ type: 'call:end', callId: CALL_ID, reason: 'answered_elsewhere' }),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByTestId('call-overlay')).toBeNull();
    expect(world.ringtone.playing).toBe(false);
    expect(world.client.callFrames).toEqual([]);
  });

  it('ignores a call with an empty from, and a second call while one rings', () => {
    const world = callWorld();
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer('audio', { ...SAM, id: '' })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(world.ringtone.starts).toBe(0);

    act(() => world.client.emitCallFrame(incomingOffer()));
    const other = { id: 'u-kim', firstName: 'Kim', lastName: 'Park', profilePictureUrl: null };
    act(() => world.client.emitCallFrame(incomingOffer('video', other, crypto.randomUUID())));
    expect(screen.getAllByRole('alertdialog')).toEqual([prompt()]);
    expect(world.ringtone.starts).toBe(1);
  });

  it('notifies through the platform while the page is hidden; the click opens /call', () => {
    const world = callWorld();
    world.hidden = true;
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer('video')));
    expect(world.notify).toHaveBeenCalledWith({
      title: 'Incoming Video Call',
      body: 'Sam Lee is calling you.',
      route: '/call',
    });
  });

  it('a refused microphone on Accept tells the caller (reject) and says why', async () => {
    const world = callWorld();
    world.denied.add('microphone');
    renderCalls(world);
    act(() => world.client.emitCallFrame(incomingOffer()));
    fireEvent.click(within(prompt()).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Microphone access is required for calls.')).toBeTruthy();
    expect(world.client.callFrames).toEqual([{ type: 'call:reject', callId: CALL_ID, to: SAM.id }]);
    expect(world.peers).toHaveLength(0);
    expect(screen.getByTestId('location').textContent).toBe('/talk');
  });
});
