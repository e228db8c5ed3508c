import { describe, expect, it } from 'vitest';
import {
  attachmentContent,
  attachmentLabel,
  CHAT_MSG,
  conversationSnippet,
  dateSeparatorLabel,
  lastActiveText,
  matchesMemberSearch,
  replyPreview,
  shortTime,
  tokenizeLinks,
  validateGroupDraft,
  directRoomId,
  avatarHue,
} from '../src';

describe('snippets and previews', () => {
  it('cuts the conversation snippet at 30 characters with an ellipsis', () => {
    expect(conversationSnippet('a'.repeat(30))).toBe('a'.repeat(30));
    expect(conversationSnippet('a'.repeat(31))).toBe(`${'a'.repeat(30)}...`);
  });

  it('cuts the reply preview at 40 characters and never splits an emoji', () => {
    expect(replyPreview('b'.repeat(41))).toBe(`${'b'.repeat(40)}...`);
    expect(replyPreview('😀'.repeat(41))).toBe(`${'😀'.repeat(40)}...`);
  });
});

describe('dates and times', () => {
  const now = new Date(2026, 10, 23, 15, 0, 0);

  it('labels separators Today, Yesterday or the full date', () => {
    expect(dateSeparatorLabel(new Date(2026, 10, 23, 8), now)).toBe('Today');
    expect(dateSeparatorLabel(new Date(2026, 10, 22, 23, 59), now)).toBe('Yesterday');
    expect(dateSeparatorLabel(new Date(2026, 10, 20, 9), now, 'en-US')).toBe('Friday, November 20, 2026');
  });

  it('answers the spec texts for invalid values', () => {
    expect(dateSeparatorLabel('not a date', now)).toBe(CHAT_MSG.invalidDate);
    expect(shortTime('nope')).toBe(CHAT_MSG.invalidTime);
  });

  it('follows the last-active rules', () => {
    expect(lastActiveText(new Date(now.getTime() - 119_000).toISOString(), now)).toBe('Active now');
    expect(lastActiveText(new Date(now.getTime() - 5 * 60_000).toISOString(), now)).toBe(
      'Active 5 minutes ago',
    );
    expect(lastActiveText(new Date(now.getTime() - 3 * 3_600_000).toISOString(), now)).toBe(
      'Active 3 hours ago',
    );
    expect(lastActiveText(new Date(2026, 10, 22, 21, 30).toISOString(), now, 'en-US')).toBe(
      'Active yesterday at 9:30 PM',
    );
    expect(lastActiveText(new Date(2026, 9, 2, 8, 5).toISOString(), now, 'en-US')).toBe(
      'Active Oct 2, 2026, 8:05 AM',
    );
    expect(lastActiveText(null, now)).toBe('');
  });
});

describe('attachments', () => {
  it('reads the label from bracketed content, default Attachment', () => {
    expect(attachmentLabel('[Image: cat.png]')).toBe('cat.png');
    expect(attachmentLabel('see [File: notes.pdf] here')).toBe('notes.pdf');
    expect(attachmentLabel('just text')).toBe('Attachment');
    expect(attachmentLabel(attachmentContent('image', 'a b.jpg'))).toBe('a b.jpg');
  });
});

describe('links', () => {
  it('makes http(s) and www links clickable and leaves trailing punctuation as text', () => {
    expect(tokenizeLinks('go to https://uni.edu/x, now')).toEqual([
      { kind: 'text', text: 'go to ' },
      { kind: 'link', text: 'https://uni.edu/x', href: 'https://uni.edu/x' },
      { kind: 'text', text: ', now' },
    ]);
    expect(tokenizeLinks('www.campus.org')).toEqual([
      { kind: 'link', text: 'www.campus.org', href: 'https://www.campus.org' },
    ]);
  });

  it('never produces a script or data link', () => {
    const tokens = tokenizeLinks('javascript:alert(1) data:text/html,<b>x</b> <a href="x">y</a>');
    expect(tokens.every((t) => t.kind === 'text')).toBe(true);
  });
});

describe('groups', () => {
  it('checks the name first, then the members', () => {
    expect(validateGroupDraft({ name: '  ', memberIds: [] })).toBe('Group name is required.');
    expect(validateGroupDraft({ name: 'Study', memberIds: [] })).toBe(
      'Please select at least one member for the group.',
    );
    expect(validateGroupDraft({ name: 'Study', memberIds: ['u1'] })).toBeNull();
  });

  it('searches members by name or e-mail, ignoring case', () => {
    const priya = { firstName: 'Priya', lastName: 'Shah', email: 'priya@uni.edu' };
    expect(matchesMemberSearch(priya, 'PRIYA s')).toBe(true);
    expect(matchesMemberSearch(priya, 'uni.EDU')).toBe(true);
    expect(matchesMemberSearch(priya, 'alex')).toBe(false);
    expect(matchesMemberSearch(priya, '')).toBe(true);
  });

  it('derives stable ids and hues', () => {
    expect(directRoomId('b', 'a')).toBe(directRoomId('a', 'b'));
    expect(avatarHue('group-1')).toBe(avatarHue('group-1'));
    expect(avatarHue('group-1')).toBeGreaterThanOrEqual(0);
    expect(avatarHue('group-1')).toBeLessThan(360);
  });
});
