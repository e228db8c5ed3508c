import { CHAT_SERVER_MSG } from './chat/messages';

/**
 * Names people choose (nicknames, group names, file names) are shown to others, so they must read as what
 * they are. Shared by the server (which decides) and the clients (which show the same refusal first).
 */

/**
 * Bidi embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, LRM/RLM, ALM). They reorder
 * how text reads ('a\u202Egpj.exe' shows as 'aexe.jpg'); a name never needs them, since the Unicode bidi
 * algorithm already lays out right-to-left letters on its own.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Characters that draw nothing and join nothing: zero-width space, word joiner and invisible operators,
 * byte-order mark, soft hyphen, Mongolian vowel separator, Hangul fillers, and C0/C1 controls and line
 * separators. Zero-width (non-)joiners and variation selectors stay: emoji sequences and Persian or Indic
 * words need them (a name made of nothing else is still refused by `hasVisibleText`).
 */
const BLANK_FORMATS = /[\p{Cc}\u00ad\u115f\u1160\u180e\u200b\u2028\u2029\u2060-\u2064\u3164\ufeff\uffa0]/gu;

/** Everything that shows nothing on its own: Unicode's default-ignorables, white space, controls, the braille blank. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\u2800]/gu;

/** The name without direction controls and blank format characters (not trimmed: schemas trim after). */
export function stripNameControls(name: string): string {
  return name.replace(BIDI_CONTROLS, '').replace(BLANK_FORMATS, '');
}

/**
 * Runs of white space as one space: 'night  owl' and 'night owl' read alike in most fonts and HTML folds
 * them on screen anyway, so they must be one name (not trimmed: schemas trim after).
 */
export function collapseSpaces(name: string): string {
  return name.replace(/\s+/gu, ' ');
}

/** True when the name shows at least one character once everything invisible is removed. */
export function hasVisibleText(name: string): boolean {
  return name.replace(INVISIBLE, '').length > 0;
}

/**
 * Extensions a browser or the desktop would open as a page or a script. Refused by name whatever the bytes
 * are (the server also sniffs content): a download keeps its name, and the name decides how it is opened.
 */
const SCRIPTABLE_EXTENSION = /\.(?:html?|xhtml|shtml|js|mjs|svgz?)$/;

/**
 * Why a file name is refused, or null. Compared case-insensitively after NFKC (full-width letters), with
 * invisibles removed and trailing dots and spaces dropped, as Windows drops them ('x.HTML.' saves as 'x.HTML').
 */
export function fileNameError(name: string): string | null {
  if (!hasVisibleText(name)) return CHAT_SERVER_MSG.attachmentNameRequired;
  const folded = name
    .normalize('NFKC')
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, '')
    .toLowerCase()
    .replace(/[.\s]+$/u, '');
  return SCRIPTABLE_EXTENSION.test(folded) ? CHAT_SERVER_MSG.attachmentNameType : null;
}

/**
 * Scripts told apart for the mixed-script rule. A letter of any other script counts as 'Other'.
 * Common (digits, '_', '.', '-', spaces) and Inherited (combining marks) are neutral.
 */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Coptic',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
] as const;
const SCRIPT_TESTS = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const);
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Mixes that one language writes (UTS #39 'highly restrictive'): Japanese, Chinese with Bopomofo, Korean. */
const ALLOWED_MIXES: ReadonlySet<string>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts a name's characters belong to, neutral ones left out. */
export function scriptsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const ch of name) {
    if (NEUTRAL.test(ch)) continue;
    found.add(SCRIPT_TESTS.find(([, test]) => test.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

/**
 * False for a name that mixes scripts, such as Latin with a Cyrillic 'і' or a Greek 'ο': the mix is how a
 * look-alike of someone else's name is made. One script, or a mix one language writes, is fine.
 */
export function isSingleScript(name: string): boolean {
  const found = [...scriptsOf(name)];
  return found.length <= 1 || ALLOWED_MIXES.some((mix) => found.every((script) => mix.has(script)));
}
