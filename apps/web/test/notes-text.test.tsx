import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { diffText, mapPosition, type TextDelta } from '../src/features/notes/text-diff';
import { notesSocketBase } from '../src/features/notes/notes-session';

describe('notes text helpers', () => {
  it('diffs by common prefix and suffix, and never splits an emoji', () => {
    expect(diffText('abc', 'abc')).toBeNull();
    expect(diffText('hello world', 'hello big world')).toEqual({ index: 6, remove: 0, insert: 'big ' });
    expect(diffText('aaa', 'aa')).toEqual({ index: 2, remove: 1, insert: '' });
    // 😀 and 😃 share their high surrogate: the change must replace the whole pair.
    expect(diffText('x😀y', 'x😃y')).toEqual({ index: 1, remove: 2, insert: '😃' });
  });

  it('maps a caret through a remote change the way Yjs reports it', () => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    text.insert(0, 'one two three');
    let delta: TextDelta = [];
    text.observe((event) => {
      delta = event.delta as TextDelta;
    });
    text.delete(0, 4); // "two three"
    expect(mapPosition(8, delta)).toBe(4); // caret stays before "three"
    expect(mapPosition(2, delta)).toBe(0); // caret inside the deleted word moves to its start
    text.insert(3, ' and'); // "two and three"
    expect(mapPosition(3, delta)).toBe(3); // text typed at the caret lands after it
    expect(mapPosition(4, delta)).toBe(8);
  });

  it('builds the notes URL beside the API with no token in it', () => {
    expect(notesSocketBase('', { protocol: 'https:', host: 'talk.uni.edu' })).toBe(
      'wss://talk.uni.edu/notes',
    );
    expect(notesSocketBase('http://localhost:8787/')).toBe('ws://localhost:8787/notes');
  });
});
