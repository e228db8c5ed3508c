import { useEffect, useId, useState, type FormEvent } from 'react';
import { CONFESSION_MSG, CONFESSIONS, nicknameSchema } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { errorLine, isNicknameAvailable, setNickname } from './confessions-api';
import { Dialog } from '../../components/Dialog';

type Check = 'idle' | 'checking' | 'available' | 'taken' | 'invalid';

const STATUS_TEXT: Record<Check, string> = {
  idle: '',
  checking: CONFESSION_MSG.nicknameChecking,
  available: CONFESSION_MSG.nicknameAvailable,
  taken: CONFESSION_MSG.nicknameTaken,
  invalid: '',
};

/** The server's own rule (characters, one alphabet), shown before asking it; null while the name passes. */
function ruleError(value: string): string | null {
  const parsed = nicknameSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

function validLength(value: string): boolean {
  const length = value.trim().length;
  return length >= CONFESSIONS.nicknameMin && length <= CONFESSIONS.nicknameMax;
}

/**
 * The nickname chooser: 2–20 characters, checked for availability once typing pauses for 450 ms; Set only
 * while the server says the name is available.
 */
export function NicknameChooser({
  onClose,
  onChosen,
}: {
  onClose(): void;
  onChosen(nickname: string): void;
}) {
  const api = useApi();
  const inputId = useId();
  const hintId = useId();
  const [value, setValue] = useState('');
  // The server's answer for one nickname; the field's status is derived from it and the current value.
  const [answer, setAnswer] = useState<{ nickname: string; available: boolean | null } | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const nickname = value.trim();
    if (!validLength(nickname) || ruleError(nickname)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      isNicknameAvailable(api, nickname, controller.signal).then(
        (available) => setAnswer({ nickname, available }),
        () => {
          if (!controller.signal.aborted) setAnswer({ nickname, available: null });
        },
      );
    }, CONFESSIONS.nicknameCheckDelayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, value]);

  const trimmed = value.trim();
  const invalid = validLength(trimmed) ? ruleError(trimmed) : null;
  const check: Check = !validLength(trimmed)
    ? 'idle'
    : invalid
      ? 'invalid'
      : answer?.nickname !== trimmed
        ? 'checking'
        : answer.available === null
          ? 'idle'
          : answer.available
            ? 'available'
            : 'taken';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (check !== 'available' || saving) return;
    setSaving(true);
    setError(null);
    try {
      await setNickname(api, value.trim());
      onChosen(value.trim());
    } catch (failure) {
      setError(errorLine(failure, CONFESSION_MSG.nicknameFailed, true).message);
      setSaving(false);
    }
  }

  return (
    <Dialog title="Choose a nickname" onClose={onClose}>
      <form className="cf-form" onSubmit={(event) => void submit(event)}>
        <label className="field__label" htmlFor={inputId}>
          Nickname
        </label>
        <input
          id={inputId}
          className="field__input"
          value={value}
          maxLength={CONFESSIONS.nicknameMax}
          autoComplete="off"
          aria-describedby={hintId}
          onChange={(event) => setValue(event.target.value)}
        />
        <p className="field__hint" id={hintId}>
          {CONFESSIONS.nicknameMin}–{CONFESSIONS.nicknameMax} characters. Others see only this name.{' '}
          <span className={`cf-nick-status cf-nick-status--${check}`} role="status">
            {invalid ?? STATUS_TEXT[check]}
          </span>
        </p>
        {error ? (
          <p className="cf-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={check !== 'available' || saving}>
            Set
          </button>
        </div>
      </form>
    </Dialog>
  );
}
