import { describe, expect, it } from 'vitest';
import { moderate } from '../src/lib/moderation';

/** Censored text with blocked words, asserting the invariants every result must keep. */
function censored(text: string) {
  const result = moderate(text);
  expect(result.original_text).toBe(text);
  expect([...result.censored_text].length).toBe([...text].length);
  expect(result.has_blocked_words).toBe(result.blocked_words.length > 0);
  return result;
}

describe('moderate: obscenity variants', () => {
  it.each([
    ['sh1t happens', '**** happens', ['sh1t']],
    ['what the $hit', 'what the ****', ['$hit']],
    ['fuuuuck this exam', '******* this exam', ['fuuuuck']],
    ['FUCK mondays', '**** mondays', ['fuck']],
    ['f u c k you', '******* you', ['f u c k']],
    ['f.u.c.k off', '******* off', ['f.u.c.k']],
    ['ｆｕｃｋ', '****', ['ｆｕｃｋ']],
    ['this motherfucker!', 'this ************!', ['motherfucker']],
    ['what an a$$hole', 'what an *******', ['a$$hole']],
  ])('%j → %j', (text, expected, words) => {
    const result = censored(text);
    expect(result.censored_text).toBe(expected);
    expect(result.blocked_words).toEqual(words);
    expect(result.has_blocked_words).toBe(true);
  });

  it('reports each distinct word once, lower-cased as written', () => {
    const result = censored('Shit, SHIT and shit again. fuck.');
    expect(result.censored_text).toBe('****, **** and **** again. ****.');
    expect(result.blocked_words).toEqual(['shit', 'fuck']);
  });
});

describe('moderate: allow-list and clean text', () => {
  it.each([
    'Scunthorpe United won at home',
    'the assassin skipped class to play bass',
    'a cocktail with my therapist',
    'Dickens wrote about Essex and Sussex',
    'graduated magna cum laude',
    'shitake mushrooms and a peacock',
    'suaranya memekakkan telinga, dia memekik',
    'anjingku lucu banget, anjingnya tidur',
    'daging babi di pasar',
    'mera kutta bahut pyaara hai',
    'I love Pakistan, spice and begonia',
    'Lund University is in Sweden',
    'the cockpit of the plane, Emily Dickinson, cumin and rapeseed',
    'match at Wankhede; jhat se aa jao',
    'ibadah di Gereja Pantekosta, kuahnya memekat',
    'Vitamin B, C, K and grades A, B, C from the U.S.A.',
  ])('%j is kept as it is', (text) => {
    const result = censored(text);
    expect(result).toEqual({
      original_text: text,
      censored_text: text,
      has_blocked_words: false,
      blocked_words: [],
    });
  });

  it('leaves every other character of the text byte-identical, emoji and new lines included', () => {
    const text = 'Hari ini 😀 bangsat!!\n  dosennya   goblok, tapi ok 🙏🏽';
    const result = censored(text);
    expect(result.censored_text).toBe('Hari ini 😀 *******!!\n  dosennya   ******, tapi ok 🙏🏽');
    expect(result.blocked_words).toEqual(['bangsat', 'goblok']);
  });

  it('returns empty and whitespace text unchanged', () => {
    expect(censored('').has_blocked_words).toBe(false);
    expect(censored('   \n').censored_text).toBe('   \n');
  });
});

describe('moderate: Indonesian', () => {
  it.each([
    ['anjing!', '******!', 'anjing'],
    ['ANJINGGG lu', '******** lu', 'anjinggg'],
    ['dasar bangsat', 'dasar *******', 'bangsat'],
    ['kontolnya', '*********', 'kontolnya'],
    ['k0nt0l', '******', 'k0nt0l'],
    ['dasar memek', 'dasar *****', 'memek'],
    ['ngentot', '*******', 'ngentot'],
    ['goblok bgt sih', '****** bgt sih', 'goblok'],
    ['tolooool', '********', 'tolooool'],
    ['bajingan kau', '******** kau', 'bajingan'],
    ['dasar babi!', '**********!', 'dasar babi'],
    ['a n j i n g', '***********', 'a n j i n g'],
  ])('%j → %j', (text, expected, word) => {
    const result = censored(text);
    expect(result.censored_text).toBe(expected);
    expect(result.blocked_words).toEqual([word]);
  });
});

describe('moderate: Hindi / Hinglish', () => {
  it.each([
    ['chutiya hai tu', '******* hai tu', 'chutiya'],
    ['abe chutiye', 'abe *******', 'chutiye'],
    ['bhenchod', '********', 'bhenchod'],
    ['behenchod yaar', '********* yaar', 'behenchod'],
    ['madarchod', '*********', 'madarchod'],
    ['gandu', '*****', 'gandu'],
    ['saali randi', 'saali *****', 'randi'],
    ['harami', '******', 'harami'],
    ['kutiya', '******', 'kutiya'],
    ['kutte ki aulad', '**************', 'kutte ki aulad'],
    ['bhosdike', '********', 'bhosdike'],
    ['bh0sdi wale', '****** wale', 'bh0sdi'],
  ])('%j → %j', (text, expected, word) => {
    const result = censored(text);
    expect(result.censored_text).toBe(expected);
    expect(result.blocked_words).toEqual([word]);
  });
});

// Speed on the same two inputs is measured by hand (`pnpm --filter @campus/bench bench:moderation`): a timed
// assertion here would fail on a busy machine and prove nothing on a quiet one.
describe('moderate: long inputs', () => {
  it('moderates a 5000-character text, censoring only the blocked word', () => {
    const text = 'kuliah pagi lagi, dosennya goblok tapi baik. '.repeat(112).slice(0, 5000);
    const result = censored(text);
    expect(result.blocked_words).toEqual(['goblok']);
    expect(result.censored_text).not.toContain('goblok');
    expect(result.censored_text.replaceAll('******', 'goblok')).toBe(text);
  });

  it('censors the whole of one long word full of matches', () => {
    const text = 'dick'.repeat(1250);
    const result = censored(text);
    expect(result.censored_text).toBe('*'.repeat(5000));
  });
});
