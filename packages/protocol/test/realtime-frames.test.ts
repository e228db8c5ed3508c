import { describe, expect, it } from 'vitest';
import { clientFrameSchema, createGroupBodySchema, isMutationFrame, serverFrameSchema } from '../src';

const mutation = { deviceId: 'device-123', mid: 1 };
const uuid = '0b8f3a52-7c1e-4d3a-9f1e-2a6b5c4d3e21';

describe('client frames', () => {
  it('accepts the spec events with their payloads', () => {
    const frames = [
      { type: 'hello', v: 1, token: 'a'.repeat(32) },
      { type: 'join_chat', peerId: 'u2' },
      { type: 'typing', roomId: 'u2' },
      { type: 'stop_typing', groupId: 'g1' },
      { type: 'send_message', ...mutation, id: uuid, to: 'u2', content: 'hi', replyTo: null },
      { type: 'send_group_message', ...mutation, id: uuid, groupId: 'g1', content: 'hey all' },
      { type: 'mark_messages_as_read', ...mutation, messageIds: ['m1'], chatPartnerId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '👍🏽', toUserId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '', toUserId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '🇮🇩', toUserId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '❤️', toUserId: 'u2' },
    ];
    for (const frame of frames) expect(clientFrameSchema.safeParse(frame).success, frame.type).toBe(true);
  });

  it('refuses malformed frames', () => {
    const bad = [
      { type: 'typing' },
      { type: 'typing', roomId: 'u2', groupId: 'g1' },
      { type: 'send_message', ...mutation, id: 'not-a-uuid', to: 'u2', content: 'hi' },
      { type: 'send_message', id: uuid, to: 'u2', content: 'hi' },
      { type: 'send_message', ...mutation, id: uuid, to: 'u2', content: 'x'.repeat(4001) },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '<b>', toUserId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '123', toUserId: 'u2' },
      { type: 'chat-reaction', ...mutation, messageId: 'm1', emoji: '#', toUserId: 'u2' },
      { type: 'mark_messages_as_read', ...mutation, messageIds: [], chatPartnerId: 'u2' },
      { type: 'teleport' },
    ];
    for (const frame of bad)
      expect(clientFrameSchema.safeParse(frame).success, JSON.stringify(frame)).toBe(false);
  });

  it('knows which frames are mutations', () => {
    const send = clientFrameSchema.parse({
      type: 'send_message',
      ...mutation,
      id: uuid,
      to: 'u2',
      content: 'hi',
    });
    const typing = clientFrameSchema.parse({ type: 'typing', roomId: 'u2' });
    expect(isMutationFrame(send)).toBe(true);
    expect(isMutationFrame(typing)).toBe(false);
  });
});

describe('server frames', () => {
  it('carries changes with their seq in the shape of live pushes', () => {
    const change = {
      type: 'peer_read_messages',
      seq: 7,
      readerId: 'u2',
      messageIds: ['m1'],
      status: 'read',
      chatPartnerId: 'u1',
      groupId: null,
    };
    expect(serverFrameSchema.safeParse(change).success).toBe(true);
    expect(
      serverFrameSchema.safeParse({ type: 'changes', changes: [change], cursor: 7, hasMore: false }).success,
    ).toBe(true);
  });
});

describe('create group body', () => {
  it('answers the spec messages', () => {
    expect(createGroupBodySchema.safeParse({ name: ' ', memberIds: ['u'] }).error?.issues[0]?.message).toBe(
      'Group name is required.',
    );
    expect(createGroupBodySchema.safeParse({ name: 'G', memberIds: [] }).error?.issues[0]?.message).toBe(
      'Please select at least one member for the group.',
    );
  });
});

describe('pull pages', () => {
  it('skip a change of a type this client does not know instead of dropping the page', () => {
    const parsed = serverFrameSchema.parse({
      type: 'changes',
      changes: [
        { type: 'notification_read', seq: 7, notificationId: 'n-1' },
        { type: 'from_a_newer_server', seq: 8, anything: true },
        { type: 'group_read', seq: 9, groupId: 'g-1', readSeq: 6 },
      ],
      cursor: 9,
      hasMore: false,
    });
    expect(parsed).toEqual({
      type: 'changes',
      changes: [
        { type: 'notification_read', seq: 7, notificationId: 'n-1' },
        { type: 'group_read', seq: 9, groupId: 'g-1', readSeq: 6 },
      ],
      cursor: 9,
      hasMore: false,
    });
  });
});
