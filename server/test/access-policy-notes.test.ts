import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebsocketProvider } from 'y-websocket';
import { docs } from '@y/websocket-server/utils';
import { CLOSE_CODES, NOTES, notesDocName } from '@campus/protocol';
import { createGroup, openNotesClient, signUp, until, upgradeClock, type Student } from './notes-helpers';
import { startTestServer, type TestServer } from './support/test-server';
import { setDocumentStatus } from './support/verify-student';

/**
 * Group notes under the access policy (issue 11): a limited member opens its group's notes and reads them;
 * an edit from it closes its socket with 4403 and changes nothing; once an admin verifies it, its next edit
 * on the same socket is applied (the status is read per edit).
 */
let server: TestServer;
const providers: WebsocketProvider[] = [];
/** The writer's connection stays open throughout, so the server keeps the document loaded. */
const kept: WebsocketProvider[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: upgradeClock.now });
});
afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
});
afterAll(async () => {
  for (const provider of kept) provider.destroy();
  await server.close();
});

const serverText = (groupId: string) => docs.get(notesDocName(groupId))?.getText(NOTES.textName).toString();
const open = (student: Student, groupId: string) => openNotesClient(server, student, groupId, providers);

describe('group notes and the access policy', () => {
  let writer: Student;
  let member: Student;
  let groupId: string;

  beforeAll(async () => {
    writer = await signUp(server, 'Wren');
    member = await signUp(server, 'Lee');
    groupId = await createGroup(server, writer, [member]);
    const notes = openNotesClient(server, writer, groupId, kept);
    await until(() => notes.provider.synced, 'writer synced');
    notes.text.insert(0, 'Agenda: ');
    await until(() => serverText(groupId) === 'Agenda: ', 'the writer’s edit');
  });

  for (const status of ['pending_submission', 'pending_verification', 'rejected'] as const) {
    it(`a ${status} member reads the notes, and its edit is refused with 4403`, async () => {
      await setDocumentStatus(server, member.userId, status);
      const notes = open(member, groupId);
      await until(() => notes.text.toString() === 'Agenda: ', 'the notes reaching the member');
      expect(notes.closes).toEqual([]);
      notes.text.insert(notes.text.length, 'mine');
      await until(() => notes.closes.includes(CLOSE_CODES.forbidden), 'the refusal');
      expect(serverText(groupId)).toBe('Agenda: ');
    });
  }

  it('verifying a member lets its next edit through on the socket it already has', async () => {
    await setDocumentStatus(server, member.userId, 'pending_verification');
    const notes = open(member, groupId);
    await until(() => notes.provider.synced && notes.text.toString() === 'Agenda: ', 'member synced');
    await setDocumentStatus(server, member.userId, 'verified');
    notes.text.insert(notes.text.length, 'lunch');
    await until(() => serverText(groupId) === 'Agenda: lunch', 'the member’s edit');
    expect(notes.closes).toEqual([]);
  });
});
