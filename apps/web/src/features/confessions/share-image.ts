import { toBlob } from 'html-to-image';
import { CONFESSIONS, type Platform } from '@campus/protocol';

/**
 * Renders a card to a PNG at pixel ratio 2 and saves it through the Platform (a download in the browser,
 * a save dialog on the desktop). While rendering, the card carries data-sharing, which shows the watermark
 * caption and takes the buttons out of the layout (confessions.css), so the image is just the card.
 */
export async function shareCardAsImage(card: HTMLElement, platform: Platform): Promise<boolean> {
  card.dataset.sharing = 'true';
  try {
    const blob = await toBlob(card, {
      pixelRatio: CONFESSIONS.shareImagePixelRatio,
      cacheBust: true,
    });
    if (!blob) throw new Error('The card could not be drawn.');
    return await platform.saveFile(CONFESSIONS.shareImageFileName, blob);
  } finally {
    delete card.dataset.sharing;
  }
}
