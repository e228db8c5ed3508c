import EmojiPicker, { Categories, EmojiStyle, Theme } from 'emoji-picker-react';
import { EMOJI_CATEGORIES } from '@campus/protocol';
import { useTheme } from '../theme/ThemeProvider';

/** The spec's six categories, in its order, named as it names them. */
const CATEGORY_IDS: Record<(typeof EMOJI_CATEGORIES)[number], Categories> = {
  'Smileys & People': Categories.SMILEYS_PEOPLE,
  'Animals & Nature': Categories.ANIMALS_NATURE,
  'Food & Drink': Categories.FOOD_DRINK,
  Activities: Categories.ACTIVITIES,
  Objects: Categories.OBJECTS,
  Symbols: Categories.SYMBOLS,
};
const CATEGORIES = EMOJI_CATEGORIES.map((name) => ({ category: CATEGORY_IDS[name], name }));

/**
 * Loaded on demand (React.lazy) so the picker's emoji data stays off the first paint. Native emoji only:
 * no images are fetched from any CDN.
 */
export default function EmojiPickerPanel({ onPick }: { onPick: (emoji: string) => void }) {
  const { theme } = useTheme();
  return (
    <EmojiPicker
      onEmojiClick={(data) => onPick(data.emoji)}
      emojiStyle={EmojiStyle.NATIVE}
      theme={theme === 'dark' ? Theme.DARK : Theme.LIGHT}
      categories={CATEGORIES}
      previewConfig={{ showPreview: false }}
      skinTonesDisabled
      lazyLoadEmojis
      width="100%"
      height={360}
    />
  );
}
