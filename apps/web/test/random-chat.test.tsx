import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { RANDOM_MSG, REALTIME_TIMING } from '@campus/protocol';

const RETRY_MS = REALTIME_TIMING.unansweredRetryMs;
import { RESUME_WAIT_MS, START_CONNECT_WAIT_MS } from '../src/features/random/random-controller';
import { RANDOM_TEXT } from '../src/features/random/random-state';
import { BO, ROOM, randomWorld, renderRandom, serverSends, settle, type RandomWorld } from './random-kit';

const input = () => screen.getByPlaceholderText(RANDOM_MSG.typeMessage) as HTMLTextAreaElement;
const typed = (text: string) => fireEvent.change(input(), { target: { value: text } });
const typing = (world: RandomWorld) => world.client.randomSent('random-typing').map((frame) => frame.typing);
/** The server's `random-queue` for a chat wait that started now. */
const waiting = (widened: boolean) =>
  ({ type: 'random-queue', kind: 'chat', since: new Date().toISOString(), binding: 0, widened }) as const;

/** The chat screen, started, and matched with Bo in ROOM. */
async function connectedChat(world = randomWorld()) {
  renderRandom(world, ['/talk', '/random-chat']);
  fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
  await screen.findByText(RANDOM_MSG.findingMatch);
  serverSends(world, { type: 'random-matched', roomId: ROOM, partner: BO });
  await screen.findByPlaceholderText(RANDOM_MSG.typeMessage);
  return world;
}

describe('random text chat', () => {
  it('goes idle → finding → connected → post, with the messages relayed both ways', async () => {
    const world = randomWorld();
    renderRandom(world, ['/talk', '/random-chat']);
    expect(screen.getByText(RANDOM_MSG.chatIdle)).toBeTruthy();
    expect(screen.getByText(RANDOM_MSG.chatIdleSub)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    expect(await screen.findByText(RANDOM_MSG.findingMatch)).toBeTruthy();
    expect(world.client.randomFrames).toEqual([{ type: 'join-random' }]);
    expect(screen.getByRole('timer', { name: 'Finding countdown' }).textContent).toBe('60');
    expect(screen.getByText(RANDOM_MSG.fallbackCollege)).toBeTruthy();
    expect(screen.getByText(RANDOM_MSG.fallbackCourse)).toBeTruthy();

    serverSends(world, waiting(false));
    expect(screen.queryByText(RANDOM_MSG.widened)).toBeNull();
    serverSends(world, { type: 'random-matched', roomId: ROOM, partner: BO });
    expect(screen.getByTestId('random-partner-college').textContent).toBe('IIT Delhi');
    expect(screen.getByTestId('random-partner-course').textContent).toBe('Electrical Engineering');
    expect(screen.getByRole('timer', { name: 'Elapsed time' }).textContent).toBe('00:00');

    const at = '2026-11-20T09:15:00.000Z';
    serverSends(world, { type: 'random-typing', roomId: ROOM, typing: true });
    expect(screen.getByText('typing…')).toBeTruthy();
    serverSends(world, { type: 'chat-message', roomId: ROOM, text: 'hey from Delhi', timestamp: at, i: 1 });
    const log = screen.getByRole('log', { name: 'Messages' });
    const line = within(log).getByText('hey from Delhi').closest('li')!;
    expect(line.querySelector('time')!.getAttribute('dateTime')).toBe(at);
    expect(line.querySelector('time')!.textContent).toMatch(/\d{1,2}:\d{2}/);
    expect(screen.queryByText('typing…')).toBeNull();
    // Another room's frames are not this one's.
    serverSends(world, { type: 'chat-message', roomId: 'other', text: 'stray', timestamp: at, i: 2 });
    expect(screen.queryByText('stray')).toBeNull();

    typed('hi Bo');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(world.client.randomSent('chat-message')).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'hi Bo', n: 1 },
    ]);
    expect(within(log).getByText('hi Bo')).toBeTruthy();
    expect(input().value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.endChat }));
    expect(world.client.randomSent('leave-random-room')).toEqual([
      { type: 'leave-random-room', roomId: ROOM },
    ]);
    expect(screen.getByText(RANDOM_MSG.niceChat)).toBeTruthy();
    for (const name of [RANDOM_MSG.startNewChat, 'Add Friend', 'Report', 'Block', RANDOM_MSG.backToHome]) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startNewChat }));
    expect(screen.getByRole('button', { name: RANDOM_MSG.startChat })).toBeTruthy();
  });

  it('Enter sends, Shift+Enter does not; an empty message is not sent', async () => {
    const world = await connectedChat();
    typed('line one');
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(world.client.randomSent('chat-message')).toEqual([]);
    typed('   ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(world.client.randomSent('chat-message')).toEqual([]);
    typed('line one\nline two');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(world.client.randomSent('chat-message')).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'line one\nline two', n: 1 },
    ]);
  });

  it('sends typing once when text appears, and stop-typing 1.2 s after the last key, on emptying and after send', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = await connectedChat();
    // When each typing frame left, on the fake clock: shouldAdvanceTime also moves it with real time, so on a
    // busy machine an exact "nothing at 1,199 ms" would race; the gap from the last key is what must hold.
    const sentAt: number[] = [];
    const send = world.client.sendRandomFrame.bind(world.client);
    world.client.sendRandomFrame = (frame) => {
      if (frame.type === 'random-typing') sentAt.push(Date.now());
      return send(frame);
    };
    typed('h');
    typed('he');
    typed('hey');
    expect(typing(world)).toEqual([true]);
    await settle(600);
    typed('hey!');
    const lastKey = Date.now();
    await settle(1200);
    expect(typing(world)).toEqual([true, false]);
    expect(sentAt[1]! - lastKey).toBeGreaterThanOrEqual(1200);

    typed('again');
    expect(typing(world)).toEqual([true, false, true]);
    typed('');
    expect(typing(world)).toEqual([true, false, true, false]);

    typed('send me');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(typing(world)).toEqual([true, false, true, false, true, false]);
    await settle(2000);
    expect(typing(world)).toHaveLength(6);
    expect(world.client.randomSent('random-typing').every((f) => f.roomId === ROOM)).toBe(true);
  });

  it('the partner leaving ends the chat: post screen with the reason', async () => {
    const world = await connectedChat();
    serverSends(world, { type: 'random-chat-ended', roomId: ROOM, reason: 'left' });
    expect(screen.getByText(RANDOM_MSG.niceChat)).toBeTruthy();
    expect(screen.getByText(RANDOM_MSG.partnerLeft)).toBeTruthy();
    expect(world.client.randomSent('leave-random-room')).toEqual([]);
  });

  it("after 60 s says 'No one is free right now.': Keep waiting stays queued, Cancel leaves", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await settle(59_000);
    expect(screen.getByRole('timer', { name: 'Finding countdown' }).textContent).toBe('1');
    expect(screen.queryByText(RANDOM_MSG.noOneFound)).toBeNull();
    await settle(1000);
    expect(screen.getByText(RANDOM_MSG.noOneFound)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.keepWaiting }));
    expect(screen.queryByText(RANDOM_MSG.noOneFound)).toBeNull();
    expect(screen.getByText(RANDOM_MSG.findingMatch)).toBeTruthy();
    expect(world.client.randomSent('leave-random-queue')).toEqual([]);
    await settle(120_000);
    expect(screen.queryByText(RANDOM_MSG.noOneFound)).toBeNull();
    // Still queued: a partner found now still connects.
    serverSends(world, waiting(true));
    expect(screen.getByText(RANDOM_MSG.widened)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(world.client.randomSent('leave-random-queue')).toEqual([{ type: 'leave-random-queue' }]);
    expect(screen.getByRole('button', { name: RANDOM_MSG.startChat })).toBeTruthy();
  });

  it('a Find nothing has answered goes again, marked `retry`, until the server answers or the student cancels', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    const finds = () => world.client.randomSent('join-random');
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await screen.findByText(RANDOM_MSG.findingMatch);
    await settle(RETRY_MS - 100);
    expect(finds()).toEqual([{ type: 'join-random' }]);
    await settle(100);
    expect(finds()).toEqual([{ type: 'join-random' }, { type: 'join-random', retry: true }]);
    await settle(RETRY_MS);
    expect(finds()).toHaveLength(3);
    // Answered: it waits, and nothing goes again.
    serverSends(world, waiting(false));
    await settle(3 * RETRY_MS);
    expect(finds()).toHaveLength(3);

    // Cancelled before any answer: nothing goes again either.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await screen.findByText(RANDOM_MSG.findingMatch);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await settle(3 * RETRY_MS);
    expect(finds()).toEqual([
      { type: 'join-random' },
      { type: 'join-random', retry: true },
      { type: 'join-random', retry: true },
      { type: 'join-random' },
    ]);
  });

  it('a dropped connection keeps the room: Reconnecting, Send off, then random-resume once back, the lines sent meanwhile, and its own lines the room lacks sent again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = await connectedChat();
    const at = '2026-11-20T09:15:00.000Z';
    const line = (text: string, i: number) =>
      serverSends(world, { type: 'chat-message', roomId: ROOM, text, timestamp: at, i });
    line('before the drop', 1);
    typed('you there?');
    fireEvent.keyDown(input(), { key: 'Enter' });
    serverSends(world, { type: 'random-typing', roomId: ROOM, typing: true });
    act(() => world.client.setState({ status: 'offline' }));
    // Still the room, with what the partner said, and the typing gone with the connection.
    expect(screen.getByPlaceholderText(RANDOM_MSG.typeMessage)).toBeTruthy();
    expect(screen.getByText(RANDOM_TEXT.reconnecting)).toBeTruthy();
    expect(screen.queryByText('typing…')).toBeNull();
    typed('still there?');
    expect((screen.getByTestId('random-send') as HTMLButtonElement).disabled).toBe(true);
    await settle(RESUME_WAIT_MS / 2);
    expect(screen.queryByText(RANDOM_MSG.niceChat)).toBeNull();

    act(() => world.client.setState({ status: 'online' }));
    // It says how many of the partner's lines it has: the server sends the rest.
    expect(world.client.randomSent('random-resume')).toEqual([
      { type: 'random-resume', roomId: ROOM, heard: 1 },
    ]);
    expect(world.client.randomSent('leave-random-room')).toEqual([]);
    // A line that reaches this device before the answer waits for it (the answer's lines include it).
    line('ahead of the answer', 3);
    expect(screen.queryByText('ahead of the answer')).toBeNull();
    // The room never got "you there?" (the drop took it): said 0, so it goes again, with its number.
    serverSends(world, { type: 'random-resumed', roomId: ROOM, said: 0 });
    expect(world.client.randomSent('chat-message')).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'you there?', n: 1 },
      { type: 'chat-message', roomId: ROOM, text: 'you there?', n: 1 },
    ]);
    line('said while you were away', 2);
    line('ahead of the answer', 3);
    // A line this device has, sent again after a coordinator crash: shown once.
    line('said while you were away', 2);
    expect(screen.queryByText(RANDOM_TEXT.reconnecting)).toBeNull();
    const log = screen.getByRole('log', { name: 'Messages' });
    expect([...log.querySelectorAll('.random-line__text')].map((el) => el.textContent)).toEqual([
      'before the drop',
      'you there?',
      'said while you were away',
      'ahead of the answer',
    ]);
    // Taken back: the wait's deadline is off, and the room goes on.
    await settle(RESUME_WAIT_MS);
    expect(screen.queryByText(RANDOM_MSG.niceChat)).toBeNull();
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(world.client.randomSent('chat-message').slice(2)).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'still there?', n: 2 },
    ]);
    vi.useRealTimers();
  });

  it('after a resume only the lines past the room’s said go again', async () => {
    const world = await connectedChat();
    typed('one');
    fireEvent.keyDown(input(), { key: 'Enter' });
    typed('two');
    fireEvent.keyDown(input(), { key: 'Enter' });
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'online' }));
    serverSends(world, { type: 'random-resumed', roomId: ROOM, said: 1 });
    expect(world.client.randomSent('chat-message')).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'one', n: 1 },
      { type: 'chat-message', roomId: ROOM, text: 'two', n: 2 },
      { type: 'chat-message', roomId: ROOM, text: 'two', n: 2 },
    ]);
  });

  it('against a server older than the device (no `said`, no `i`): nothing is sent again, every line shows', async () => {
    const world = await connectedChat();
    const at = '2026-11-20T09:15:00.000Z';
    typed('one');
    fireEvent.keyDown(input(), { key: 'Enter' });
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'online' }));
    serverSends(world, { type: 'random-resumed', roomId: ROOM });
    expect(screen.queryByText(RANDOM_TEXT.reconnecting)).toBeNull();
    expect(world.client.randomSent('chat-message')).toEqual([
      { type: 'chat-message', roomId: ROOM, text: 'one', n: 1 },
    ]);
    serverSends(world, { type: 'chat-message', roomId: ROOM, text: 'same words', timestamp: at });
    serverSends(world, { type: 'chat-message', roomId: ROOM, text: 'same words', timestamp: at });
    expect(within(screen.getByRole('log', { name: 'Messages' })).getAllByText('same words')).toHaveLength(2);
  });

  it('a room not taken back in time ends here, and the server is told once the connection is back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = await connectedChat();
    act(() => world.client.setState({ status: 'offline' }));
    await settle(RESUME_WAIT_MS);
    expect(screen.getByText(RANDOM_MSG.niceChat)).toBeTruthy();
    expect(screen.getByTestId('random-ended').textContent).toMatch(/lost the connection/);
    expect(world.client.randomSent('leave-random-room')).toEqual([]);
    act(() => world.client.setState({ status: 'online' }));
    expect(world.client.randomSent('leave-random-room')).toEqual([
      { type: 'leave-random-room', roomId: ROOM },
    ]);
    expect(world.client.randomSent('random-resume')).toEqual([]);
    vi.useRealTimers();
  });

  it('a resume the server answers with the room’s end: over here, because the connection was lost', async () => {
    const world = await connectedChat();
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'online' }));
    expect(world.client.randomSent('random-resume')).toEqual([
      { type: 'random-resume', roomId: ROOM, heard: 0 },
    ]);
    serverSends(world, { type: 'random-chat-ended', roomId: ROOM, reason: 'disconnected' });
    expect(screen.getByText(RANDOM_MSG.niceChat)).toBeTruthy();
    expect(screen.getByTestId('random-ended').textContent).toMatch(/lost the connection/);
  });

  it('the partner’s leave, heard on the way back, keeps its reason', async () => {
    const world = await connectedChat();
    act(() => world.client.setState({ status: 'offline' }));
    act(() => world.client.setState({ status: 'online' }));
    serverSends(world, { type: 'random-chat-ended', roomId: ROOM, reason: 'left' });
    expect(screen.getByTestId('random-ended').textContent).toBe(RANDOM_MSG.partnerLeft);
  });

  it('leaving the screen leaves the room', async () => {
    const world = await connectedChat();
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(world.client.randomSent('leave-random-room')).toEqual([
      { type: 'leave-random-room', roomId: ROOM },
    ]);
  });

  it('Start while the connection is still coming up waits for it, then queues (it used to say offline at once)', async () => {
    const world = randomWorld();
    // The status a screen sees before its first connect and between reconnects.
    world.client.setState({ status: 'offline' });
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    expect(await screen.findByText(RANDOM_MSG.findingSomeone)).toBeTruthy();
    expect(screen.queryByText(RANDOM_TEXT.offline)).toBeNull();
    expect(world.client.randomFrames).toEqual([]);
    expect((screen.getByRole('button', { name: RANDOM_MSG.startChat }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    act(() => world.client.setState({ status: 'connecting' }));
    expect(world.client.randomFrames).toEqual([]);
    act(() => world.client.setState({ status: 'online' }));
    expect(await screen.findByText(RANDOM_MSG.findingMatch)).toBeTruthy();
    expect(world.client.randomFrames).toEqual([{ type: 'join-random' }]);
  });

  it('Start says offline when the connection does not come up in time, and at once when the device has no network', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = randomWorld();
    world.client.setState({ status: 'offline' });
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await settle(START_CONNECT_WAIT_MS - 500);
    expect(screen.queryByText(RANDOM_TEXT.offline)).toBeNull();
    await settle(500);
    expect(screen.getByText(RANDOM_TEXT.offline)).toBeTruthy();
    expect(world.client.randomFrames).toEqual([]);
    // Coming online later does not start a search nobody is waiting for.
    act(() => world.client.setState({ status: 'online' }));
    await settle(0);
    expect(world.client.randomFrames).toEqual([]);
    vi.useRealTimers();

    act(() => world.client.setState({ status: 'offline' }));
    const noNetwork = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
      expect(await screen.findByText(RANDOM_TEXT.offline)).toBeTruthy();
      expect(world.client.randomFrames).toEqual([]);
    } finally {
      noNetwork.mockRestore();
    }
  });

  it('Cancel while waiting for the connection stops the start: nothing is queued when it comes up', async () => {
    const world = randomWorld();
    world.client.setState({ status: 'offline' });
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await screen.findByText(RANDOM_MSG.findingSomeone);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    act(() => world.client.setState({ status: 'online' }));
    await act(async () => {
      await Promise.resolve();
    });
    expect(world.client.randomSent('join-random')).toEqual([]);
    expect(screen.getByRole('button', { name: RANDOM_MSG.startChat })).toBeTruthy();
  });

  it('unmounting while waiting leaves the queue', async () => {
    const world = randomWorld();
    const view = renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    await screen.findByText(RANDOM_MSG.findingMatch);
    view.unmount();
    expect(world.client.randomSent('leave-random-queue')).toEqual([{ type: 'leave-random-queue' }]);
  });

  it('Block and Report go over /ws with the room, and show the server’s answer', async () => {
    const world = await connectedChat();
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.endChat }));
    fireEvent.click(screen.getByRole('button', { name: /Block/ }));
    expect(world.client.randomSent('random-action')).toEqual([
      { type: 'random-action', roomId: ROOM, action: 'block', block: true },
    ]);
    serverSends(world, {
      type: 'random-action-result',
      roomId: ROOM,
      action: 'block',
      ok: true,
      message: 'Blocked. You will not be matched again.',
    });
    expect(screen.getByTestId('random-action-result').textContent).toBe(
      'Blocked. You will not be matched again.',
    );

    fireEvent.click(screen.getByRole('button', { name: /Report/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report Bo' });
    fireEvent.click(within(dialog).getByLabelText('Spam or scam'));
    fireEvent.change(within(dialog).getByLabelText(/Anything else/), { target: { value: ' sent links ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    expect(world.client.randomSent('random-action').at(-1)).toEqual({
      type: 'random-action',
      roomId: ROOM,
      action: 'report',
      reason: 'spam',
      note: 'sent links',
      block: true,
    });
    serverSends(world, {
      type: 'random-action-result',
      roomId: ROOM,
      action: 'report',
      ok: true,
      message: 'Thanks, we will look into it.',
    });
    expect(await within(dialog).findByText(/Report sent/)).toBeTruthy();
  });

  it('a refusal from the server shows its reason with the way to upload the ID', async () => {
    const world = randomWorld();
    renderRandom(world, ['/random-chat']);
    fireEvent.click(screen.getByRole('button', { name: RANDOM_MSG.startChat }));
    serverSends(world, {
      type: 'random-refused',
      code: 'verification',
      error: RANDOM_MSG.verificationRequired,
    });
    const error = screen.getByTestId('random-error');
    expect(error.textContent).toContain(RANDOM_MSG.verificationRequired);
    expect(within(error).getByRole('link', { name: 'Upload your student ID' })).toBeTruthy();
    expect(screen.getByRole('button', { name: RANDOM_MSG.startChat })).toBeTruthy();
  });
});
