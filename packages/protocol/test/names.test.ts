import { describe, expect, it } from 'vitest';
import {
  CHAT_MSG,
  CHAT_SERVER_MSG,
  CONFESSION_SERVER_MSG,
  MSG,
  collapseSpaces,
  createGroupBodySchema,
  fileNameError,
  hasVisibleText,
  isSingleScript,
  nicknameSchema,
  scriptsOf,
  signupBody,
  stripNameControls,
  validateGroupDraft,
} from '../src';

const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const MARKS = ['\u200E', '\u200F', '\u061C'];
const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u180E', '\u3164', '\u2800'];

describe('stripNameControls', () => {
  it('removes every bidi override, isolate and mark, and blank fillers', () => {
    for (const ch of [...BIDI, ...MARKS, '\u200B', '\u2060', '\uFEFF', '\u180E', '\u3164', '\u00AD'])
      expect(stripNameControls(`a${ch}b`)).toBe('ab');
    // The classic: 'a‮gpj.exe' shows as 'aexe.jpg'.
    expect(stripNameControls('a\u202Egpj.exe')).toBe('agpj.exe');
  });

  it('keeps joiners and variation selectors that emoji and some scripts need', () => {
    const family = '👩\u200D👩\u200D👧';
    expect(stripNameControls(`${family} ❤\uFE0F`)).toBe(`${family} ❤\uFE0F`);
    expect(stripNameControls('می\u200Cخواهم')).toBe('می\u200Cخواهم');
  });
});

describe('hasVisibleText', () => {
  it('is false for names made only of invisible characters and spaces', () => {
    for (const ch of [...INVISIBLES, ...BIDI, ...MARKS]) expect(hasVisibleText(` ${ch}${ch} `)).toBe(false);
    expect(hasVisibleText('')).toBe(false);
    expect(hasVisibleText('\u3000\t')).toBe(false);
  });
  it('is true when anything shows', () => {
    expect(hasVisibleText('\u200Ba')).toBe(true);
    expect(hasVisibleText('👍')).toBe(true);
  });
});

describe('group names', () => {
  const parse = (name: string) => createGroupBodySchema.safeParse({ name, memberIds: ['u'] });

  it('refuses an invisible-only name with the spec wording', () => {
    for (const name of ['\u200B', '\u200D', '\u202E\u2066', '\uFEFF \u3164', '\u2800']) {
      expect(parse(name).error?.issues[0]?.message).toBe(CHAT_MSG.groupNameRequired);
      expect(validateGroupDraft({ name, memberIds: ['u'] })).toBe(CHAT_MSG.groupNameRequired);
    }
  });
  it('strips direction controls and trims', () => {
    expect(parse(' \u202EStudy\u2069 Group\u200B ').data?.name).toBe('Study Group');
    expect(validateGroupDraft({ name: 'Study', memberIds: ['u'] })).toBeNull();
  });
  it('counts the length after stripping', () => {
    expect(parse('\u202E'.repeat(10) + 'x'.repeat(60)).data?.name).toBe('x'.repeat(60));
  });
});

describe('file names', () => {
  it('refuses page and script extensions in any case, with trailing dots and spaces', () => {
    const refused = [
      'evil.html',
      'x.HTML.',
      'x.htm',
      'a.Js',
      'x.SVG',
      'x.svg. . ',
      'x.html\u200B',
      'x.ｈｔｍｌ',
      'x.ht\u202Eml',
      'page.xhtml',
      'm.mjs',
      'x.svgz',
    ];
    for (const name of refused) expect(fileNameError(name), name).toBe(CHAT_SERVER_MSG.attachmentNameType);
  });
  it('accepts ordinary names, even ones that mention html', () => {
    for (const name of ['notes.txt', 'html.pdf', 'x.json', 'x.jsx.png', 'report.html.pdf', 'svg'])
      expect(fileNameError(name), name).toBeNull();
  });
  it('refuses a name with nothing visible', () => {
    for (const name of ['', '\u200B', '\u202E\u200D', ' \u3164 '])
      expect(fileNameError(name)).toBe(CHAT_SERVER_MSG.attachmentNameRequired);
  });
});

describe('scripts', () => {
  it('tells the scripts of letters apart; digits and punctuation are neutral', () => {
    expect([...scriptsOf('night_owl-2.0')]).toEqual(['Latin']);
    expect([...scriptsOf('nіght')].sort()).toEqual(['Cyrillic', 'Latin']);
    expect([...scriptsOf('12_.- ')]).toEqual([]);
  });
  it('refuses Latin mixed with Cyrillic or Greek, allows one script and CJK mixes', () => {
    for (const name of ['nіght_owl', 'nightοwl', 'Ρaul', 'аlex', 'abc١'])
      expect(isSingleScript(name), name).toBe(false);
    for (const name of [
      'night_owl',
      'Ночная_сова',
      'νυχτοπούλι',
      'José',
      'たなか太郎',
      '김민준_kim',
      'Zoë 2',
    ])
      expect(isSingleScript(name), name).toBe(true);
  });
});

describe('nicknameSchema', () => {
  it('refuses mixed scripts with its own message', () => {
    const result = nicknameSchema.safeParse('nіght_owl');
    expect(result.error?.issues[0]?.message).toBe(CONFESSION_SERVER_MSG.nicknameMixedScript);
  });
  it('strips bidi controls and fillers before the length and character rules', () => {
    expect(nicknameSchema.parse('\u202Enight_owl\u2069')).toBe('night_owl');
    expect(nicknameSchema.parse('night\u200B_owl')).toBe('night_owl');
    for (const name of ['\u3164\u3164', '\u202E\u202E\u202Ea']) {
      expect(nicknameSchema.safeParse(name).error?.issues[0]?.message).toBe(
        CONFESSION_SERVER_MSG.nicknameLength,
      );
    }
    // Joiners are not letters: refused by the character rule, as before.
    expect(nicknameSchema.safeParse('ab\u200Dcd').error?.issues[0]?.message).toBe(
      CONFESSION_SERVER_MSG.nicknameChars,
    );
  });
});

describe('white space in nicknames', () => {
  it('collapses runs of white space to one space before the rules', () => {
    expect(nicknameSchema.parse('night  owl')).toBe('night owl');
    expect(nicknameSchema.parse(' night \t\u00A0 owl ')).toBe('night owl');
    expect(collapseSpaces('a  b\t\tc')).toBe('a b c');
  });
});

describe('person names at sign-up', () => {
  const body = (firstName: string, lastName = 'Park') => ({
    firstName,
    lastName,
    email: 'mina@uni.edu',
    password: 'secret12',
  });

  it("refuses a first name that shows nothing with the spec's 'required' wording", () => {
    for (const name of ['\u200B', '\u200B\u200B ', '\u202E', '\u2800', '\u3164'])
      expect(signupBody.safeParse(body(name)).error?.issues[0]?.message, JSON.stringify(name)).toBe(
        MSG.signupRequired,
      );
  });

  it('strips direction controls and blank fillers from first and last names', () => {
    const parsed = signupBody.parse(body('\u202EMina\u2069', 'Pa\u200Brk\u202C'));
    expect(parsed.firstName).toBe('Mina');
    expect(parsed.lastName).toBe('Park');
    // A last name may be left out; one that shows nothing counts as left out.
    expect(signupBody.parse(body('Mina', '\u2800')).lastName).toBe('');
  });
});
