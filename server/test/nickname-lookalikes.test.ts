import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFESSION_SERVER_MSG } from '@campus/protocol';
import { nicknameSkeleton } from '../src/modules/confessions/skeleton';
import { startTestServer, type TestServer } from './support/test-server';
import { createStudent, postAs, withNickname, type Student } from './confessions-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const CYRILLIC_I = '\u0456';

async function check(student: Student, name: string) {
  return server.get(`/api/confessions/nickname/check/${encodeURIComponent(name)}`, student.token);
}
async function set(student: Student, nickname: string) {
  return server.post('/api/confessions/nickname/set', { nickname }, student.token);
}
async function expectTaken(student: Student, name: string) {
  expect((await check(student, name)).body, name).toEqual({ available: false });
  const res = await set(student, name);
  expect(res.status, name).toBe(409);
  expect(res.body.error).toBe(CONFESSION_SERVER_MSG.nicknameTaken);
}

describe('nicknameSkeleton', () => {
  it('folds look-alikes and case to one skeleton', () => {
    const night = nicknameSkeleton('night_owl');
    for (const name of [
      'NIGHT_OWL',
      'Night_Owl',
      `n${CYRILLIC_I}ght_owl`,
      'night_owI',
      'n1ght_0wl',
      'ｎｉｇｈｔ_ｏｗｌ',
    ])
      expect(nicknameSkeleton(name), name).toBe(night);
    // 'rn' reads as 'm' in most fonts: one look. 'i' and 'l' are one letter (a capital I is both).
    expect(nicknameSkeleton('moon')).toBe(nicknameSkeleton('rnoon'));
    expect(nicknameSkeleton('ali')).toBe(nicknameSkeleton('all'));
    // Different looks stay different.
    const distinct: [string, string][] = [
      ['night_owl', 'night_ow'],
      ['moon', 'noon'],
      ['vv', 'w'],
    ];
    for (const [a, b] of distinct) expect(nicknameSkeleton(a), `${a}/${b}`).not.toBe(nicknameSkeleton(b));
  });
});

describe('look-alike nicknames', () => {
  it('are taken while night_owl is, and mixed scripts are refused with their own message', async () => {
    const owl = await withNickname(server, await createStudent(server, 'Owl'), 'night_owl');
    const eve = await createStudent(server, 'Eve');

    // Same look: a capital I for l, a zero for o, capitals (which fold to the same key).
    for (const name of ['night_owI', 'NIGHT_OWL', 'night_0wl', 'NIGHT_0WL']) await expectTaken(eve, name);

    // A Cyrillic і in a Latin name is refused for mixing scripts, on check and on set.
    const mixed = `n${CYRILLIC_I}ght_owl`;
    const mixedCheck = await check(eve, mixed);
    expect(mixedCheck.status).toBe(400);
    expect(mixedCheck.body.error).toBe(CONFESSION_SERVER_MSG.nicknameMixedScript);
    const mixedSet = await set(eve, mixed);
    expect(mixedSet.status).toBe(400);
    expect(mixedSet.body.error).toBe(CONFESSION_SERVER_MSG.nicknameMixedScript);
    expect((await server.get('/api/confessions/nickname', eve.token)).status).toBe(404);

    // The owner may still change the case or look of their own name.
    expect((await check(owl, 'Night_OwI')).body).toEqual({ available: true });
    await withNickname(server, owl, 'Night_Owl');
  });

  it("refuses 'moon' once 'rnoon' is taken, and a whole-script look-alike", async () => {
    await withNickname(server, await createStudent(server, 'Rn'), 'rnoon');
    await withNickname(server, await createStudent(server, 'Pop'), 'popo');
    const eve = await createStudent(server, 'Eve2');
    await expectTaken(eve, 'moon');
    await expectTaken(eve, 'MOON');
    // All-Cyrillic 'рор' + 'о': one script, so not refused as mixed, but it looks like 'popo'.
    await expectTaken(eve, '\u0440\u043e\u0440\u043e');
    await withNickname(server, eve, 'noon');
  });

  it('keeps a signed name by its look after a rename', async () => {
    const ray = await withNickname(server, await createStudent(server, 'Ray'), 'RayOfLight');
    await postAs(server, ray, 'signed with my first name');
    await withNickname(server, ray, 'RayTwo');
    const eve = await createStudent(server, 'Eve3');
    await expectTaken(eve, 'RayOfLlght');
    await expectTaken(eve, 'RAY0FLIGHT');
    await withNickname(server, ray, 'RayOfLight');
  });

  it('strips direction controls and fillers from a nickname before checking it', async () => {
    await withNickname(server, await createStudent(server, 'Bidi'), 'quiet_fox');
    const eve = await createStudent(server, 'Eve4');
    await expectTaken(eve, '\u202Equiet_fox\u2069');
    await expectTaken(eve, 'quiet_fox\u3164');
    const filler = await set(eve, '\u3164\u3164\u200B');
    expect(filler.status).toBe(400);
    expect(filler.body.error).toBe(CONFESSION_SERVER_MSG.nicknameLength);
    const res = await set(eve, '\u202Bloud_fox\u202C');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ nickname: 'loud_fox' });
  });
});

describe('white space in nicknames', () => {
  it("stores 'quiet  owl' (two spaces) as 'quiet owl', and any run of spaces is the same look", async () => {
    const owl = await createStudent(server, 'Spaced');
    const res = await set(owl, 'quiet  owl');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ nickname: 'quiet owl' });
    const eve = await createStudent(server, 'Eve5');
    for (const name of ['quiet owl', 'quiet   owl', 'QUIET \t OWL']) await expectTaken(eve, name);
  });

  it('gives one skeleton to names that differ only in runs of white space', () => {
    expect(nicknameSkeleton('night  owl')).toBe(nicknameSkeleton('night owl'));
    expect(nicknameSkeleton(' night\t\towl ')).toBe(nicknameSkeleton('night owl'));
  });
});
