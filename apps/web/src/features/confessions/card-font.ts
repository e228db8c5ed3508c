/**
 * Font size for a card's text: short confessions read big, long ones shrink, within 18–46 px. Logarithmic,
 * so each doubling of the length takes the same step (about 9 px) from 46 px at 20 characters.
 */
export function cardFontPx(length: number, min: number, max: number): number {
  const size = max - 9 * Math.log2(Math.max(length, 20) / 20);
  return Math.round(Math.min(max, Math.max(min, size)));
}
