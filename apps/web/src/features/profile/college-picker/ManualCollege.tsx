import { useId, useLayoutEffect, useRef } from 'react';
import { PROFILE } from '@campus/protocol';

interface Props {
  name: string;
  error?: string | null;
  onName(name: string): void;
  /** Back to the search. */
  onBack(): void;
}

/** 'Add manually': the college's name as typed (non-empty after trim, checked when saving). */
export function ManualCollege({ name, error, onName, onBack }: Props) {
  const inputId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  // The field replaces the link that was just pressed: focus follows it.
  useLayoutEffect(() => input.current?.focus(), []);

  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        College name
      </label>
      <input
        ref={input}
        data-field="college"
        id={inputId}
        className="field__input"
        type="text"
        autoComplete="organization"
        maxLength={PROFILE.maxCollegeNameLength}
        value={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onName(event.target.value)}
      />
      {error ? (
        <p className="profile-field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      <p className="field__hint">
        <button type="button" className="link-button" onClick={onBack}>
          Search the list instead
        </button>
      </p>
    </div>
  );
}
