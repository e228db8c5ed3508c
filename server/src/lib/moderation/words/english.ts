/**
 * English additions to obscenity's own English dataset (which already covers the common profanities and
 * many slurs, e.g. fuck, shit, cunt, bitch, nigger/nigga, fag, retard, kike, chink, tranny).
 *
 * Entry syntax (see ../patterns.ts): plain lower-case letters and spaces; a leading `|` means the match
 * must start a word, a trailing `|` means it must end one. Repeated letters, leetspeak and look-alike
 * characters are handled by the transformers, so list each spelling once.
 */
export const ENGLISH_WORDS: readonly string[] = [
  // Slurs the dataset lacks. Whole words: 'spic' must not hit 'spice', 'paki' must not hit 'Pakistan'.
  '|spic|',
  '|spics|',
  '|wetback',
  '|beaner',
  '|gook|',
  '|gooks|',
  '|paki|',
  '|pakis|',
  '|raghead',
  '|towelhead',
  '|coon|',
  '|coons|',
  '|jigaboo',
  '|skank',
  '|douchebag',
  '|douche|',
  '|jackass',
  '|dumbass',
  '|smartass',
  '|fatass',
];
