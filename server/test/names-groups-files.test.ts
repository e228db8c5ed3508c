import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MSG,
  CHAT_SERVER_MSG,
  fileKeyFromUrl,
  groupMessageSchema,
  groupSchema,
  type Group,
} from '@campus/protocol';
import { valueOf } from './support/sql';
import { startTestServer, type TestServer } from './support/test-server';
import { addStudent, upload, type Student } from './chat-rest-helpers';

let server: TestServer;
let alex: Student;
let priya: Student;
let group: Group;

const TEXT = new TextEncoder().encode('plain notes, nothing to run\n');

beforeAll(async () => {
  server = await startTestServer();
  alex = await addStudent(server, 'Alex', 'Names');
  priya = await addStudent(server, 'Priya', 'Names');
  group = groupSchema.parse(
    (await server.post('/api/groups', { name: 'Lab', memberIds: [priya.id] }, alex.token)).body,
  );
});
afterAll(async () => {
  await server.close();
});

const createGroup = (name: string) => server.post('/api/groups', { name, memberIds: [priya.id] }, alex.token);
const attach = (name: string, bytes = TEXT) =>
  upload(server, `/api/groups/${group.id}/attachments`, alex.token, { bytes, name, type: 'text/plain' });
const storedName = (key: string) => valueOf(server, 'SELECT file_name FROM attachments WHERE key = ?', key);

describe('group names', () => {
  it('refuses a name that is only invisible characters, with the spec wording', async () => {
    for (const name of ['\u200B', '\u200D\u200C', '\u2060\uFEFF', '\u3164', '\u202E\u2066', ' \u180E ']) {
      const res = await createGroup(name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error).toBe(CHAT_MSG.groupNameRequired);
    }
  });

  it('strips direction controls and zero-width spaces from the stored and announced name', async () => {
    const res = await createGroup('\u202EStudy\u2066 Group\u200B\u2069');
    expect(res.status).toBe(201);
    expect(groupSchema.parse(res.body).name).toBe('Study Group');
    const stored = await valueOf(server, 'SELECT name FROM groups WHERE id = ?', res.body.id as string);
    expect(stored).toBe('Study Group');
    // Emoji keep their joiners.
    const family = await createGroup('👩\u200D👩\u200D👧 Family');
    expect(family.body.name).toBe('👩\u200D👩\u200D👧 Family');
  });
});

describe('attachment file names', () => {
  it('never accepts .html, .htm, .js or .svg names, in any case or with trailing dots and spaces', async () => {
    for (const name of [
      'evil.html',
      'x.SVG',
      'x.HTML.',
      'page.htm ',
      'app.Js',
      'x.svg\u200B',
      'a.ht\u202Eml',
    ]) {
      const res = await attach(name);
      expect(res.status, name).toBe(415);
      expect(res.body.error).toBe(CHAT_SERVER_MSG.attachmentNameType);
    }
    const count = await valueOf(server, 'SELECT count(*) FROM attachments');
    expect(count).toBe(0);
  });

  it('strips a right-to-left override so the name reads as what it is', async () => {
    const res = await attach('a\u202Egpj.exe');
    expect(res.status).toBe(201);
    const message = groupMessageSchema.parse(res.body);
    expect(message.content).toBe('[File: agpj.exe]');
    expect(await storedName(fileKeyFromUrl(message.attachmentUrl)!)).toBe('agpj.exe');
  });

  it('refuses a name with nothing visible', async () => {
    const res = await attach('\u200B\u202E');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(CHAT_SERVER_MSG.attachmentNameRequired);
  });
});
