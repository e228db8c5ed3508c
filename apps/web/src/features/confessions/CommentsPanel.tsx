import { useCallback, useEffect, useId, useState, type KeyboardEvent } from 'react';
import {
  CONFESSION_MSG,
  CONFESSIONS,
  censorConfirm,
  relativeTime,
  type Confession,
  type ConfessionComment,
} from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { useCampusSync } from '../sync/sync-context';
import { addComment, errorLine, fetchComments } from './confessions-api';
import { ConfirmDialog, Dialog } from './Dialog';
import { ErrorText } from './ErrorText';
import { useModeration } from './useModeration';

interface CommentsPanelProps {
  confession: Confession;
  /** The viewer's nickname, shown on their comment until the server's copy replaces it. */
  nickname: string;
  /** False: writing opens the nickname chooser instead. */
  canWrite: boolean;
  onNeedNickname(): void;
  onClose(): void;
  onCommented(count: number): void;
}

type ListState = { kind: 'loading' } | { kind: 'done'; comments: ConfessionComment[] } | { kind: 'error' };

/** The comments of one confession and a 500-character box: Enter posts, Shift+Enter adds a line. */
export function CommentsPanel({
  confession,
  nickname,
  canWrite,
  onNeedNickname,
  onClose,
  onCommented,
}: CommentsPanelProps) {
  const api = useApi();
  const writer = useCampusSync();
  const boxId = useId();
  const counterId = useId();
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const { resolve } = useModeration(text);

  const load = useCallback(async () => {
    try {
      const comments = await fetchComments(api, confession.id);
      setList({ kind: 'done', comments });
      return comments.length;
    } catch {
      setList({ kind: 'error' });
      return null;
    }
  }, [api, confession.id]);

  useEffect(() => {
    let live = true;
    fetchComments(api, confession.id).then(
      (comments) => {
        if (live) setList({ kind: 'done', comments });
      },
      () => {
        // Offline, the card's own newest comments (from the cache) are better than an error.
        if (live)
          setList(navigator.onLine ? { kind: 'error' } : { kind: 'done', comments: confession.comments });
      },
    );
    return () => {
      live = false;
    };
  }, [api, confession.id, confession.comments]);

  async function send(content: string) {
    setBusy(true);
    setError(null);
    try {
      if (writer) {
        // Through the outbox, so a comment written offline is delivered once when the network is back.
        const id = await writer.commentConfession(confession.id, content.trim(), { nickname });
        const mine: ConfessionComment = {
          id,
          confessionId: confession.id,
          nickname,
          content: content.trim(),
          createdAt: new Date().toISOString(),
          isMine: true,
        };
        setText('');
        setList((current) => ({
          kind: 'done',
          comments: [...(current.kind === 'done' ? current.comments : confession.comments), mine],
        }));
        onCommented(confession.commentCount + 1);
        return;
      }
      await addComment(api, confession.id, content);
      setText('');
      const count = await load();
      onCommented(count ?? confession.commentCount + 1);
    } catch (failure) {
      setError(errorLine(failure, CONFESSION_MSG.commentFailed, true).message);
    } finally {
      setBusy(false);
    }
  }

  async function submit() {
    if (!canWrite) {
      onNeedNickname();
      return;
    }
    if (!text.trim() || busy) return;
    setBusy(true);
    const verdict = await resolve(text);
    setBusy(false);
    if (verdict.has_blocked_words) setConfirm(verdict.censored_text);
    else await send(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  }

  return (
    <Dialog title="Comments" onClose={onClose} variant="sheet">
      <div className="cf-comments" aria-live="polite">
        {list.kind === 'loading' ? <p className="cf-note">Loading comments…</p> : null}
        {list.kind === 'error' ? <p className="cf-error">Could not load comments.</p> : null}
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
                  <time dateTime={comment.createdAt}>{relativeTime(comment.createdAt)}</time>
                </p>
                <p className="cf-comment__text">{comment.content}</p>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
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
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <p className="cf-counter" id={counterId}>
          {text.length}/{CONFESSIONS.maxCommentLength}
        </p>
        <ErrorText error={error} />
        <div className="cf-dialog__actions">
          <button type="submit" className="button button--primary" disabled={!text.trim() || busy}>
            Comment
          </button>
        </div>
      </form>
      {confirm !== null ? (
        <ConfirmDialog
          title="Censored words"
          message={censorConfirm(confirm)}
          confirmLabel="Continue"
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const censored = confirm;
            setConfirm(null);
            void send(censored);
          }}
        />
      ) : null}
    </Dialog>
  );
}
