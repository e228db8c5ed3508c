import { describe, expect, it } from 'vitest';
import {
  CHANGE_TYPES,
  changesFrameSchema,
  encodeChangesPage,
  encodeServerFrame,
  MUTATION_TYPES,
  mutationFrameSchema,
  serverFrameSchema,
  type Change,
  type ChangeOf,
  type ChangeType,
  type ServerFrame,
} from '../src';

const user = { id: 'u1', firstName: 'Alex', lastName: 'Kim', profilePictureUrl: null };
const peer = { id: 'u2', firstName: 'Bo', lastName: 'Lee', profilePictureUrl: null };
const at = '2026-11-25T10:00:00.000Z';
const callId = '0b5e7c1a-3f2d-4c8e-9a61-2d7f4b9e1c35';
const direct = {
  id: 'm1',
  from: user,
  to: peer,
  content: 'hi',
  timestamp: at,
  status: 'sent' as const,
  attachmentUrl: null,
  attachmentType: null,
  replyTo: null,
  reactions: [],
  seq: 3,
};
const group = {
  id: 'g1',
  name: 'Study',
  avatarUrl: null,
  createdBy: 'u1',
  members: [user, peer],
  createdAt: at,
};
const counts = { relatable: 1, funny: 0, feelYou: 2, shareWorthy: 0 };
const card = {
  id: 'c1',
  content: 'Exams are close',
  emotionTag: 'stressed',
  college: 'IIT Delhi',
  createdAt: at,
  imageUrl: null,
  nickname: 'night_owl',
  reactions: counts,
  myReactions: [],
  commentCount: 0,
  comments: [],
  isMine: false,
};

/** One example of every change kind: a change kind added to the protocol without one fails the typecheck. */
const changes: { [T in ChangeType]: ChangeOf<T> } = {
  receive_message: { type: 'receive_message', seq: 1, message: direct },
  receive_group_message: {
    type: 'receive_group_message',
    seq: 2,
    message: {
      id: 'gm1',
      from: user,
      group: 'g1',
      content: 'hey',
      timestamp: at,
      attachmentUrl: null,
      attachmentType: null,
      seq: 2,
    },
  },
  peer_read_messages: {
    type: 'peer_read_messages',
    seq: 3,
    readerId: 'u2',
    messageIds: ['m1'],
    status: 'read',
    chatPartnerId: 'u1',
    groupId: null,
  },
  'chat-reaction': {
    type: 'chat-reaction',
    seq: 4,
    messageId: 'm1',
    emoji: '👍',
    fromUserId: 'u2',
    toUserId: 'u1',
  },
  group_joined: { type: 'group_joined', seq: 5, group },
  group_read: { type: 'group_read', seq: 6, groupId: 'g1', readSeq: 5 },
  confession_posted: { type: 'confession_posted', seq: 7, confession: card },
  confession_mine: { type: 'confession_mine', seq: 8, confessionId: 'c1' },
  confession_deleted: { type: 'confession_deleted', seq: 9, confessionId: 'c1' },
  confession_counts: {
    type: 'confession_counts',
    seq: 10,
    confessionId: 'c1',
    reactions: counts,
    commentCount: 3,
  },
  notification_created: {
    type: 'notification_created',
    seq: 11,
    notification: {
      id: 'n1',
      type: 'confession_reaction',
      title: 'New reaction',
      body: 'Someone related to your confession',
      createdAt: at,
      isRead: false,
      data: { confessionId: 'c1' },
    },
  },
  notification_read: { type: 'notification_read', seq: 12, notificationId: 'n1' },
  notifications_deleted: { type: 'notifications_deleted', seq: 13, notificationIds: ['n1'] },
  user_updated: {
    type: 'user_updated',
    seq: 14,
    user: { ...user, profilePictureUrl: '/files/avatars/u1?v=abc' },
  },
  me_updated: {
    type: 'me_updated',
    seq: 15,
    user: {
      ...user,
      email: 'alex@campustalk.test',
      role: 'user',
      course: 'Physics',
      year: 2,
      bio: null,
      college: { id: 'c1', name: 'Universitas Indonesia', country: 'ID' },
      interests: ['Coding', 'Music'],
      skillLevel: 'Beginner',
      branch: null,
      documentStatus: 'verified',
      documentDeadline: null,
      documentUrl: null,
      documentSubmittedAt: '2026-11-25T10:00:00.000Z',
      createdAt: '2026-11-01T10:00:00.000Z',
      lastActiveAt: null,
      access: 'full',
    },
  },
  friend_request_received: {
    type: 'friend_request_received',
    seq: 16,
    request: { _id: 'r1', id: 'r1', status: 'pending', from: user, createdAt: at },
  },
  friend_request_updated: { type: 'friend_request_updated', seq: 17, requestId: 'r1', status: 'accepted' },
  friendship_changed: { type: 'friendship_changed', seq: 18, friend: user, added: true },
  block_changed: { type: 'block_changed', seq: 19, user, blocked: true, at },
  call_logged: {
    type: 'call_logged',
    seq: 20,
    log: {
      id: 'l1',
      status: 'completed',
      callType: 'video',
      caller: user,
      callee: peer,
      startedAt: at,
      duration: 65,
    },
  },
};
const changeList: Change[] = Object.values(changes);

type EngineFrame = Exclude<ServerFrame, Change>;
/** One example of every frame kind the engine sends besides changes. */
const engineFrames: { [T in EngineFrame['type']]: Extract<EngineFrame, { type: T }> } = {
  welcome: { type: 'welcome', v: 1, userId: 'u1', heartbeatMs: 10_000 },
  pong: { type: 'pong', t: 123 },
  changes: { type: 'changes', changes: changeList, cursor: 13, hasMore: false },
  sync_reset: {
    type: 'sync_reset',
    cursor: 13,
    conversations: [],
    groups: [group],
    messages: [direct],
    groupMessages: [],
    users: [],
  },
  ack: { type: 'ack', deviceId: 'device-123', mid: 4 },
  message_error: {
    type: 'message_error',
    code: 'rateLimited',
    error: 'You are sending messages too fast. Please slow down.',
    context: 'send_message',
    deviceId: 'device-123',
    mid: 5,
  },
  peer_typing: { type: 'peer_typing', fromUserId: 'u2' },
  peer_stop_typing: { type: 'peer_stop_typing', fromUserId: 'u2' },
  group_member_typing: { type: 'group_member_typing', fromUserId: 'u2', groupId: 'g1' },
  group_member_stop_typing: { type: 'group_member_stop_typing', fromUserId: 'u2', groupId: 'g1' },
  user_online: { type: 'user_online', userId: 'u2' },
  user_offline: { type: 'user_offline', userId: 'u2', lastActiveAt: at },
  online_users_list: { type: 'online_users_list', userIds: ['u2'] },
  online_count: { type: 'online_count', count: 42 },
  'call:offer': {
    type: 'call:offer',
    callId,
    from: user,
    callType: 'audio',
    signal: { type: 'offer', sdp: 'v=0\r\n' },
  },
  'call:answer': { type: 'call:answer', callId, from: 'u2', signal: { type: 'answer', sdp: 'v=0\r\n' } },
  'call:reject': { type: 'call:reject', callId, from: 'u2' },
  'call:end': { type: 'call:end', callId, reason: 'refused', error: 'You are already in a call.' },
  'call:placed': { type: 'call:placed', callId },
  'call:ringing': { type: 'call:ringing', callId },
  'call:resumed': { type: 'call:resumed', callId },
  'random-queue': { type: 'random-queue', kind: 'chat', since: at, binding: 2, widened: true },
  'partner-found': {
    type: 'partner-found',
    roomId: callId,
    kind: 'video',
    isInitiator: true,
    partner: { firstName: 'Bo', profilePictureUrl: null, college: 'IIT Delhi', course: 'CS' },
    endsAt: at,
    matched: { satisfied: 1, chosen: 2 },
  },
  'random-matched': {
    type: 'random-matched',
    roomId: callId,
    partner: { firstName: 'Bo', profilePictureUrl: null, college: null, course: null },
  },
  'random-resumed': { type: 'random-resumed', roomId: callId, said: 2 },
  'chat-message': { type: 'chat-message', roomId: callId, text: 'hi', timestamp: at, i: 1 },
  'random-typing': { type: 'random-typing', roomId: callId, typing: true },
  'incoming-call': { type: 'incoming-call', roomId: callId, signal: { type: 'offer', sdp: 'v=0\r\n' } },
  'call-accepted': { type: 'call-accepted', roomId: callId, signal: { type: 'answer', sdp: 'v=0\r\n' } },
  'call-ended': { type: 'call-ended', roomId: callId, reason: 'time_limit' },
  'random-chat-ended': { type: 'random-chat-ended', roomId: callId, reason: 'left' },
  'random-reveal': { type: 'random-reveal', roomId: callId, partner: true, both: false },
  'random-refused': { type: 'random-refused', code: 'profile', error: 'Complete your profile.' },
  'random-action-result': {
    type: 'random-action-result',
    roomId: callId,
    action: 'add-friend',
    ok: true,
    message: 'Friend request sent!',
  },
};

describe('server frames', () => {
  it('every kind round-trips through the one server frame schema', () => {
    const frames: ServerFrame[] = [...changeList, ...Object.values(engineFrames)];
    for (const frame of frames) {
      const parsed = serverFrameSchema.safeParse(JSON.parse(encodeServerFrame(frame)));
      expect(parsed.success, frame.type).toBe(true);
      expect(parsed.data, frame.type).toEqual(frame);
    }
  });

  it('lists every change type once, derived from the schemas', () => {
    expect([...CHANGE_TYPES].sort()).toEqual(Object.keys(changes).sort());
    expect(new Set(MUTATION_TYPES).size).toBe(MUTATION_TYPES.length);
    expect(MUTATION_TYPES).toContain('confession_delete');
  });

  it('random talk frames from a server older than the device (no line numbers, no `said`) still parse', () => {
    const roomId = '0b6f3e0e-6f0e-4f57-9a43-5b7f9a1c2d3e';
    for (const frame of [
      { type: 'chat-message', roomId, text: 'hi', timestamp: '2026-11-28T07:00:00.000Z' },
      { type: 'random-resumed', roomId },
    ])
      expect(serverFrameSchema.safeParse(frame).success).toBe(true);
    expect(
      serverFrameSchema.safeParse({ type: 'chat-message', roomId, text: 'hi', timestamp: 'x', i: 0 }).success,
    ).toBe(false);
  });

  it('a message_error without a known code is refused', () => {
    const frame = { ...engineFrames.message_error, code: 'somethingElse' };
    expect(serverFrameSchema.safeParse(frame).success).toBe(false);
    const { code: _code, ...withoutCode } = engineFrames.message_error;
    expect(serverFrameSchema.safeParse(withoutCode).success).toBe(false);
  });

  it('mutation frames are exactly the client frames named in the mutation list', () => {
    const frame = { type: 'confession_delete', deviceId: 'device-123', mid: 1, confessionId: 'c1' };
    expect(mutationFrameSchema.parse(frame)).toEqual(frame);
  });
});

describe('pre-encoded pull pages', () => {
  it('every page built from stored change payloads parses back through the changes schema', () => {
    const payloads = changeList.map((change) => JSON.stringify(change));
    // Every prefix and every single change, with both hasMore values and a range of cursors.
    const pages: string[][] = [[]];
    for (let i = 1; i <= payloads.length; i++) pages.push(payloads.slice(0, i));
    for (const payload of payloads) pages.push([payload]);
    for (const page of pages) {
      for (const hasMore of [true, false]) {
        for (const cursor of [0, 13, 2 ** 40]) {
          const json = encodeChangesPage(page, cursor, hasMore);
          const parsed = changesFrameSchema.parse(JSON.parse(json));
          expect(parsed).toEqual({
            type: 'changes',
            changes: page.map((payload) => JSON.parse(payload) as Change),
            cursor,
            hasMore,
          });
          expect(serverFrameSchema.safeParse(JSON.parse(json)).success).toBe(true);
        }
      }
    }
  });

  it('keeps the cursor an integer and hasMore a boolean whatever is passed at run time', () => {
    const json = encodeChangesPage([], 7.9, 'yes' as unknown as boolean);
    expect(changesFrameSchema.parse(JSON.parse(json))).toEqual({
      type: 'changes',
      changes: [],
      cursor: 7,
      hasMore: false,
    });
  });
});
