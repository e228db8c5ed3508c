import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  CONFESSION_MSG,
  CONFESSIONS,
  relativeTime,
  type Confession,
  type ConfessionComment,
} from '@campus/protocol';
import { writeConfessionComment } from '@campus/sync';
import { useApi } from '../../lib/ApiContext';
import { useSync } from '../sync/sync-context';
import { NoAuthTokenError, errorLine, fetchComments, requireAuthToken } from './confessions-api';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from './ErrorText';
import type { QueuedWrites } from './queued-writes';
import { useCensorGate } from './useCensorGate';

interface CommentsPanelProps {
  confession: Confession;
  /** The viewer's nickname, shown on their comment until the server's copy replaces it. */
  nickname: string;
  /** False: writing opens the nickname chooser instead. */
  canWrite: boolean;
  /** Shown instead of the comment box when the account may not comment yet (the access policy). */
  locked?: ReactNode;
  /** The feed's clock, so comment times move on with the cards'. */
  now: number;
  writes: QueuedWrites;
  /** The text in the box, kept by the page: it survives the nickname chooser replacing this panel. */
  draft: string;
  onDraft(change: (text: string) => string): void;
  onNeedNickname(): void;
  onClose(): void;
}

type ListState =
  { kind: 'loading' } | { kind: 'done'; comments: ConfessionComment[] } | { kind: 'error'; message: string };

const loadError = (failure: unknown) =>
  failure instanceof NoAuthTokenError ? CONFESSION_MSG.noAuthToken : 'Could not load comments.';

/** The comments of one confession and a 500-character box: Enter posts, Shift+Enter adds a line. */
export function CommentsPanel(props: CommentsPanelProps) {
  const { confession, nickname, canWrite, now, writes, onDraft } = props;
  const text = props.draft;
  const api = useApi();
  const client = useSync();
  const boxId = useId();
  const counterId = useId();
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  /** Stops watching this panel's queued comments: a refusal after it closed goes to the feed. */
  const watching = useRef<(() => void)[]>([]);
  useEffect(() => {
    const stops = watching.current;
    return () => stops.forEach((stop) => stop());
  }, []);
  const [error, setError] = useState<string | null>(null);
  /**
   * The card's cached comments, for the offline fallback. Read through a ref: the card changes with every
   * write (this panel's own comment too), which must not fetch the list again.
   */
  const cachedComments = useRef(confession.comments);
  useEffect(() => {
    cachedComments.current = confession.comments;
  }, [confession.comments]);

  useEffect(() => {
    let live = true;
    fetchComments(api, confession.id).then(
      (comments) => {
        if (live) setList({ kind: 'done', comments });
      },
      (failure: unknown) => {
        // Offline, the card's own newest comments (from the cache) are better than an error.
        if (!live) return;
        const offline = !navigator.onLine && !(failure instanceof NoAuthTokenError);
        setList(
          offline
            ? { kind: 'done', comments: cachedComments.current }
            : { kind: 'error', message: loadError(failure) },
        );
      },
    );
    return () => {
      live = false;
    };
  }, [api, confession.id]);

  /**
   * A queued comment the server refused: it leaves the list (the sync client takes it off the card and its
   * count), its text returns to the box.
   */
  function refused(id: string, content: string, reason: string) {
    setList((current) =>
      current.kind === 'done'
        ? { kind: 'done', comments: current.comments.filter((comment) => comment.id !== id) }
        : current,
    );
    onDraft((current) => current || content);
    setError(reason || CONFESSION_MSG.commentFailed);
  }

  async function send(content: string) {
    setBusy(true);
    setError(null);
    try {
      requireAuthToken();
      // Through the outbox, so a comment written offline is delivered once when the network is back. The
      // card's comment count moves with it in the cache.
      const body = content.trim();
      const id = await client.run(writeConfessionComment, confession.id, body, { nickname });
      watching.current.push(writes.watch(client.db, id, (reason) => refused(id, body, reason)));
      const mine: ConfessionComment = {
        id,
        confessionId: confession.id,
        nickname,
        content: body,
        createdAt: new Date().toISOString(),
        isMine: true,
      };
      onDraft(() => '');
      setList((current) => ({
        kind: 'done',
        comments: [
          // The cached card already holds this comment (the write put it there).
          ...(current.kind === 'done' ? current.comments : cachedComments.current).filter((c) => c.id !== id),
          mine,
        ],
      }));
    } catch (failure) {
      setError(errorLine(failure, CONFESSION_MSG.commentFailed, true).message);
    } finally {
      setBusy(false);
    }
  }

  const gate = useCensorGate(text, send);

  async function submit() {
    if (!canWrite) {
      props.onNeedNickname();
      return;
    }
    if (!busy) await gate.submit();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  }

  return (
    <Dialog title="Comments" onClose={props.onClose} variant="sheet">
      <div className="cf-comments" aria-live="polite">
        {list.kind === 'loading' ? <p className="cf-note">Loading comments…</p> : null}
        {list.kind === 'error' ? <p className="cf-error">{list.message}</p> : null}
        {list.kind === 'done' && list.comments.length === 0 ? (
          <p className="cf-note">No comments yet.</p>
        ) : null}
        {list.kind === 'done' && list.comments.length > 0 ? (
          <ul className="cf-comments__list" aria-label="Comments">
            {list.comments.map((comment) => (
              <li key={comment.id} className="cf-comment">
                <p className="cf-comment__meta">
                  <strong>{comment.nickname}</strong>
                  {comment.isMine ? <span className="cf-note"> (you)</span> : null}{' '}
                  <time dateTime={comment.createdAt}>{relativeTime(comment.createdAt, now)}</time>
                </p>
                <p className="cf-comment__text">{comment.content}</p>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {props.locked ?? (
        <form
          className="cf-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label className="field__label" htmlFor={boxId}>
            Add a comment
          </label>
          <textarea
            id={boxId}
            className="field__input cf-textarea cf-textarea--small"
            rows={2}
            value={text}
            maxLength={CONFESSIONS.maxCommentLength}
            aria-describedby={counterId}
            onChange={(event) => {
              const value = event.target.value;
              onDraft(() => value);
            }}
            onKeyDown={onKeyDown}
          />
          <p className="cf-counter" id={counterId}>
            {text.length}/{CONFESSIONS.maxCommentLength}
          </p>
          <ErrorText error={error} />
          <div className="modal__actions">
            <button
              type="submit"
              className="button button--primary"
              disabled={!text.trim() || busy || gate.checking}
            >
              Comment
            </button>
          </div>
        </form>
      )}
      {gate.prompt}
    </Dialog>
  );
}
