/**
 * Indonesian (and common Javanese/Minang) profanity and insults, with their usual spellings.
 * Syntax as in ./english.ts: `|` marks a word boundary at that end.
 *
 * Words that are also ordinary nouns are decided one by one:
 * - 'anjing' (dog) is overwhelmingly the expletive when it stands alone in student writing, so it is
 *   blocked as a whole word only: 'anjingku', 'anjingnya' (my dog, the dog) stay untouched.
 * - 'babi' (pig) and 'monyet' (monkey) are blocked only in insult phrases ('dasar babi', 'babi lu'), so
 *   'daging babi' (pork) or a zoo story is not censored. The whole phrase is censored.
 * - 'memek' has the prefix form, but 'memekik' (to shriek) and 'memekakkan' (deafening) are allow-listed.
 * - 'bego' is whole-word so 'begonia' is untouched; 'tai' (also a common name) is left out, 'taik' kept.
 * - 'pantek' is whole-word: 'Pantekosta' (Pentecostal) is a church name.
 */
export const INDONESIAN_WORDS: readonly string[] = [
  '|anjing|',
  '|anjeng|',
  '|anjink|',
  '|njing|',
  '|anjir|',
  '|anjrit|',
  '|anjrot|',
  '|anjg|',
  '|ajg|',
  '|bangsat',
  '|bangsad',
  '|bajingan',
  '|kontol',
  '|kntl|',
  '|memek',
  '|mmk|',
  '|pepek',
  '|ngentot',
  '|ngentod',
  '|entot',
  '|ngewe',
  '|goblok',
  '|goblog',
  '|gblk|',
  '|tolol',
  '|bego|',
  '|kampret',
  '|keparat',
  '|brengsek',
  '|bangke|',
  '|taik|',
  '|jancuk',
  '|jancok',
  '|dancok',
  '|cuki|',
  '|pantek|',
  '|lonte',
  '|perek|',
  '|sundal',
  '|bencong|',
  '|dasar babi|',
  '|babi lu|',
  '|babi lo|',
  '|babi kau|',
  '|babi kamu|',
  '|muka babi|',
  '|dasar monyet|',
  '|monyet lu|',
  '|monyet lo|',
];
