import { describe, expect, it, vi } from 'vitest';
import { RESUME_WAIT_MS } from '../src/features/random/random-controller';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RANDOM_MSG } from '@campus/protocol';
import { student } from './helpers';
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

const remote = () => screen.getByTestId('random-remote-video');
const blurred = () => remote().getAttribute('data-blurred');

/** Started, matched with Bo, and the peer built. */
async function inRoom(world: RandomWorld) {
  renderRandom(world, ['/talk', '/random-video']);
  expect(screen.getByRole('heading', { name: RANDOM_MSG.videoTitle })).toBeTruthy();
  expect(screen.getByText(`${student.firstName} (you)`)).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startVideo }));
  await screen.findByText(RANDOM_MSG.findingRandomUser);
  serverSends(world, {
    type: 'partner-found',
    roomId: ROOM,
    kind: 'video',
    isInitiator: true,
    partner: BO,
    endsAt: new Date(Date.now() + 600_000).toISOString(),
  });
  await waitFor(() => expect(world.peers).toHaveLength(1));
  return world.lastPeer();
}

describe('random video call', () => {
  it('sends a blurred picture until both revealed, then the camera; the partner stays blurred until both', async () => {
    const world = randomWorld();
    const peer = await inRoom(world);
    expect(world.permissions).toEqual(['microphone', 'camera']);
    expect(world.client.randomSent('find-partner')).toEqual([{ type: 'find-partner', kind: 'video' }]);
    const camera = world.media[0]!;
    const [blur] = world.blurs;
    // The peer carries the blurred stream built from the camera, never the camera itself.
    expect(blur!.camera).toBe(camera);
    expect(peer.options.stream).toBe(blur!.stream);
    expect(peer.options.stream).not.toBe(camera);
    expect(blurred()).toBe('true');
    expect(screen.getByText(RANDOM_MSG.blurredHint)).toBeTruthy();

    // The partner reveals first: still blurred, both ways.
    serverSends(world, { type: 'random-reveal', roomId: ROOM, partner: true, both: false });
    expect(screen.getByText(RANDOM_MSG.partnerRevealed)).toBeTruthy();
    expect(blurred()).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.reveal }));
    expect(world.client.randomSent('random-reveal')).toEqual([
      { type: 'random-reveal', roomId: ROOM, reveal: true },
    ]);
    // Not before the server says both agreed.
    expect(blurred()).toBe('true');
    expect(peer.replaced).toEqual([]);

    serverSends(world, { type: 'random-reveal', roomId: ROOM, partner: true, both: true });
    expect(blurred()).toBe('false');
    const cameraTrack = camera.getVideoTracks()[0];
    expect(peer.replaced).toEqual([{ oldTrack: blur!.blurred, newTrack: cameraTrack, stream: blur!.stream }]);

    // Blur again: at once here (no wait for the server), consent taken back, the blurred picture sent again.
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.blurAgain }));
    expect(blurred()).toBe('true');
    expect(world.client.randomSent('random-reveal').at(-1)).toEqual({
      type: 'random-reveal',
      roomId: ROOM,
      reveal: false,
    });
    expect(peer.replaced.at(-1)).toEqual({
      oldTrack: cameraTrack,
      newTrack: blur!.blurred,
      stream: blur!.stream,
    });
    serverSends(world, { type: 'random-reveal', roomId: ROOM, partner: true, both: false });
    expect(blurred()).toBe('true');
    expect(peer.replaced).toHaveLength(2);
  });

  it('a partner taking consent back blurs both ways again', async () => {
    const world = randomWorld();
    const peer = await inRoom(world);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.reveal }));
    serverSends(world, { type: 'random-reveal', roomId: ROOM, partner: true, both: true });
    expect(blurred()).toBe('false');
    serverSends(world, { type: 'random-reveal', roomId: ROOM, partner: false, both: false });
    expect(blurred()).toBe('true');
    expect(peer.replaced.map((r) => r.newTrack)).toEqual([
      world.media[0]!.getVideoTracks()[0],
      world.blurs[0]!.blurred,
    ]);
  });

  it('End Call opens the sheet (Add Friend, Report, Block, Done) with every track and the blur stopped', async () => {
    const world = randomWorld();
    const peer = await inRoom(world);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.endCall }));
    expect(world.client.randomSent('end-call')).toEqual([{ type: 'end-call', roomId: ROOM }]);
    const sheet = screen.getByRole('dialog', { name: RANDOM_MSG.videoSheet });
    for (const name of ['Add Friend', 'Report', 'Block', RANDOM_MSG.done]) {
      expect(within(sheet).getByRole('button', { name })).toBeTruthy();
    }
    expect(tracksEnded(world.media[0]!)).toBe(true);
    expect(world.blurs[0]!.stopped).toBe(true);
    expect(peer.destroyed).toBe(true);

    fireEvent.click(within(sheet).getByRole('button', { name: 'Add Friend' }));
    serverSends(world, {
      type: 'random-action-result',
      roomId: ROOM,
      action: 'add-friend',
      ok: true,
      message: 'Friend request sent!',
    });
    expect(within(sheet).getByText('Friend request sent!')).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: RANDOM_MSG.done }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: RANDOM_MSG.startVideo })).toBeTruthy();
  });

  it('a dropped connection keeps the call (the media go on); not back in time, the room ends and the camera stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    await inRoom(world);
    act(() => world.client.setState({ status: 'offline' }));
    await settle(RESUME_WAIT_MS - 500);
    expect(screen.queryByRole('dialog', { name: RANDOM_MSG.videoSheet })).toBeNull();
    expect(tracksEnded(world.media[0]!)).toBe(false);
    await settle(500);
    expect(screen.getByRole('dialog', { name: RANDOM_MSG.videoSheet })).toBeTruthy();
    expect(tracksEnded(world.media[0]!)).toBe(true);
    vi.useRealTimers();
  });
});
