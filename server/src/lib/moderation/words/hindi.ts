/**
 * Hindi / Hinglish profanity and insults in Latin script, with their common spellings.
 * Syntax as in ./english.ts: `|` marks a word boundary at that end.
 *
 * 'kutta'/'kutte' (dog) and 'haram' (forbidden, a religious term) are ordinary words and stay allowed on
 * their own; the insults built on them are listed ('kutiya', 'kutte ki aulad', 'haramzada', 'harami').
 * 'randi' is whole-word, which still hits the English given name Randi: accepted, the slur is far more
 * common here. Left out on purpose: 'sala'/'saala' (brother-in-law); 'kutti', which is 'little one / kid'
 * in Tamil and Malayalam; 'jhaat' alone, which collapses to 'jhat' as in 'jhat se' (at once) and 'jhatka';
 * 'hijra' (also the Hijrah); 'teri maa ki' (your mother's…) without the word that follows.
 */
export const HINDI_WORDS: readonly string[] = [
  '|chutiya',
  '|chutiye',
  '|chutia',
  '|chootiya',
  '|chootiye',
  '|chutiyapa',
  '|choot|',
  '|chut|',
  '|chutmarike',
  '|bhenchod',
  '|behenchod',
  '|bhenchot',
  '|benchod',
  '|bhencho|',
  '|behen ke lode',
  '|madarchod',
  '|maderchod',
  '|madarchot',
  '|maderjat',
  '|maa ki chut',
  '|gandu',
  '|gaandu',
  '|gaand|',
  '|gand mara',
  '|randi|',
  '|randiya',
  '|randwa',
  '|harami',
  '|haramzada',
  '|haramzade',
  '|haramkhor',
  '|kutiya',
  '|kuttiya',
  '|kutte ki aulad',
  '|kutte kamine',
  '|kamina|',
  '|kamine|',
  '|kaminey|',
  '|kameena|',
  '|kameene|',
  '|bhosdi',
  '|bhosda',
  '|bhosri',
  '|bsdk|',
  '|lund|',
  '|lawda',
  '|lauda|',
  '|loda|',
  '|lodu|',
  '|jhaatu|',
  '|jhant',
  '|chodu|',
  '|chudai',
  '|chinal',
  '|hijda|',
];
