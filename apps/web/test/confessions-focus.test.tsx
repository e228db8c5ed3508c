import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONFESSION_MSG } from '@campus/protocol';
import { mockServer, storeSessionFor, student } from './helpers';
import {
  NICKNAME_SET,
  SLOW,
  card,
  cards,
  collegeFeed,
  confession,
  feedPage,
  renderConfessions,
  resetConfessions,
} from './confessions-kit';

afterEach(resetConfessions);

const menuButton = (author: string) => within(card(author)).getByRole('button', { name: 'More options' });

function openDeleteConfirmation(author: string) {
  fireEvent.click(menuButton(author));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
  return screen.getByRole('alertdialog', { name: 'Delete confession' });
}

describe('focus in the confessions dialogs', () => {
  it('opens the composer with focus in the text, not on a mood', async () => {
    mockServer({ ...storeSessionFor(student), ...NICKNAME_SET, [collegeFeed(1)]: () => feedPage([]) });
    renderConfessions();
    fireEvent.click(await screen.findByRole('button', { name: CONFESSION_MSG.postButton }, SLOW));
    const composer = screen.getByRole('dialog', { name: 'Post a confession' });
    expect(document.activeElement).toBe(within(composer).getByLabelText('Your confession'));
  });

  it('returns focus to the card menu after Cancel or Escape, and to the next card after a delete', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () =>
        feedPage([
          confession('mine', { nickname: 'NightOwl', isMine: true }),
          confession('theirs', { nickname: 'Other' }),
        ]),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(2), SLOW);

    let confirm = openDeleteConfirmation('NightOwl');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(menuButton('NightOwl'));

    openDeleteConfirmation('NightOwl');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(menuButton('NightOwl'));

    confirm = openDeleteConfirmation('NightOwl');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    await waitFor(() => expect(document.activeElement).toBe(card('Other')), SLOW);
  });

  it('puts focus on the feed when the last card is deleted', async () => {
    mockServer({
      ...storeSessionFor(student),
      ...NICKNAME_SET,
      [collegeFeed(1)]: () => feedPage([confession('mine', { nickname: 'NightOwl', isMine: true })]),
    });
    renderConfessions();
    await waitFor(() => expect(cards()).toHaveLength(1), SLOW);
    const confirm = openDeleteConfirmation('NightOwl');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(0), SLOW);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('feed')), SLOW);
  });
});
