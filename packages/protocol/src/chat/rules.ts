import { CHAT } from './constants';
import { CHAT_MSG } from './messages';
import { hasVisibleText } from '../names';

/** First `length` characters with an ellipsis when cut (the spec's snippet and reply-preview rule). */
export function truncate(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length > length ? `${chars.slice(0, length).join('')}...` : text;
}

export const conversationSnippet = (text: string): string => truncate(text, CHAT.snippetLength);
export const replyPreview = (text: string): string => truncate(text, CHAT.replyPreviewLength);

function validDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function yesterdayOf(now: Date): Date {
  const d = new Date(now);
  d.setDate(d.getDate() - 1);
  return d;
}

/** Short time format ('3:07 PM' in en-US); 'Invalid time' for a bad value, as the spec says. */
export function shortTime(value: string | number | Date, locale?: string): string {
  const date = validDate(value);
  if (!date) return CHAT_MSG.invalidTime;
  return date.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
}

/** Date separator: 'Today', 'Yesterday' or the full date; 'Invalid date' for a bad value. */
export function dateSeparatorLabel(
  value: string | number | Date,
  now: Date = new Date(),
  locale?: string,
): string {
  const date = validDate(value);
  if (!date) return CHAT_MSG.invalidDate;
  if (sameDay(date, now)) return 'Today';
  if (sameDay(date, yesterdayOf(now))) return 'Yesterday';
  return date.toLocaleDateString(locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
}

/** A key per calendar day, to know where a separator goes. */
export function dayKey(value: string | number | Date): string {
  const date = validDate(value);
  return date ? `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}` : 'invalid';
}

/** Relative part of 'Active <relative>': '5 minutes ago', '3 hours ago'. */
function relativeToday(diffMs: number): string {
  const minutes = Math.floor(diffMs / 60_000);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'} ago`;
}

/**
 * The header's last-active text: within 2 minutes 'Active now'; today 'Active <relative>';
 * yesterday 'Active yesterday at <time>'; otherwise 'Active <date, time>'. Empty when unknown.
 */
export function lastActiveText(
  value: string | null | undefined,
  now: Date = new Date(),
  locale?: string,
): string {
  if (!value) return '';
  const date = validDate(value);
  if (!date) return '';
  const diff = Math.max(0, now.getTime() - date.getTime());
  if (diff <= CHAT.activeNowMs) return 'Active now';
  if (sameDay(date, now)) return `Active ${relativeToday(diff)}`;
  if (sameDay(date, yesterdayOf(now))) return `Active yesterday at ${shortTime(date, locale)}`;
  const day = date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
  return `Active ${day}, ${shortTime(date, locale)}`;
}

/** The attachment label from bracketed content '[Image: name]' or '[File: name]', default 'Attachment'. */
export function attachmentLabel(content: string): string {
  const match = /\[(?:Image|File):\s*([^\]]+)\]/.exec(content);
  return match?.[1]?.trim() || 'Attachment';
}

/** The content a message gets when it is only an attachment. */
export function attachmentContent(kind: 'image' | 'file', fileName: string): string {
  return `[${kind === 'image' ? 'Image' : 'File'}: ${fileName}]`;
}

export type TextToken = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK = /\b(https?:\/\/[^\s<>"']+|www\.[^\s<>"']+)/gi;
const TRAILING = /[.,!?;:)\]]+$/;

/**
 * Splits message text into plain text and links so the UI renders links as anchors without ever
 * interpreting the text as HTML. Only http(s) targets are produced: no javascript: or data: links.
 */
export function tokenizeLinks(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    let raw = match[0];
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    raw = raw.slice(0, raw.length - trailing.length);
    const start = match.index;
    if (start > last) tokens.push({ kind: 'text', text: text.slice(last, start) });
    const href = raw.toLowerCase().startsWith('www.') ? `https://${raw}` : raw;
    tokens.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) tokens.push({ kind: 'text', text: text.slice(last) });
  return tokens;
}

export interface GroupDraft {
  name: string;
  memberIds: readonly string[];
}

/** Create Group's checks, in the spec's order; null when the draft may be sent. */
export function validateGroupDraft(draft: GroupDraft): string | null {
  // Invisible-only names are blank too: the server refuses them with the same words.
  if (!hasVisibleText(draft.name)) return CHAT_MSG.groupNameRequired;
  if (draft.memberIds.length === 0) return CHAT_MSG.groupMembersRequired;
  return null;
}

/** Member search: name ('first last') or e-mail, case-insensitive. */
export function matchesMemberSearch(
  user: { firstName: string; lastName: string; email?: string | null },
  query: string,
): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const name = `${user.firstName} ${user.lastName}`.toLowerCase();
  return name.includes(q) || (user.email ?? '').toLowerCase().includes(q);
}

/** A stable hue for a group's generated avatar, from its id. */
export function avatarHue(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i += 1) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % 360;
}

/** The direct-chat room of two users, the same whichever of them asks. */
export function directRoomId(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
