import { useId, useRef } from 'react';
import type { User } from '@campus/protocol';
import { Avatar } from '../../components/Avatar';
import { ProgressBar } from '../../components/ProgressBar';
import { pictureProblem, readPreview, type PictureDraft } from './picture';

interface Props {
  user: User;
  draft: PictureDraft;
  onChange(draft: PictureDraft): void;
  error: string | null;
  onError(message: string | null): void;
  /** 0..1 while the picture uploads, else null. */
  progress: number | null;
  disabled: boolean;
}

/** Profile Picture: choose (checked at once), preview, remove; the upload happens on Save Changes. */
export function PictureField({ user, draft, onChange, error, onError, progress, disabled }: Props) {
  const titleId = useId();
  const hintId = useId();
  const errorId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const shown =
    draft.kind === 'new' ? draft.preview : draft.kind === 'remove' ? null : user.profilePictureUrl;

  const choose = async (file: File) => {
    const problem = pictureProblem(file);
    onError(problem);
    if (problem) return;
    try {
      onChange({ kind: 'new', file, preview: await readPreview(file) });
    } catch {
      onError('This picture could not be read. Please choose another one.');
    }
  };

  return (
    <section className="profile-section" aria-labelledby={titleId}>
      <h3 className="profile-section__title" id={titleId}>
        Profile Picture
      </h3>
      <div className="picture-field">
        <Avatar user={{ ...user, profilePictureUrl: shown }} size="lg" />
        <div className="picture-field__controls">
          <div className="picture-field__buttons">
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={disabled}
              aria-describedby={hintId}
              onClick={() => fileInput.current?.click()}
            >
              {shown ? 'Change picture' : 'Choose picture'}
            </button>
            {shown ? (
              <button
                type="button"
                className="button button--ghost button--small"
                disabled={disabled}
                onClick={() => {
                  onError(null);
                  onChange(user.profilePictureUrl ? { kind: 'remove' } : { kind: 'keep' });
                }}
              >
                Remove picture
              </button>
            ) : null}
          </div>
          <p className="field__hint" id={hintId}>
            max 2MB, JPG/PNG
          </p>
          {draft.kind === 'remove' ? (
            <p className="field__hint">Your picture will be removed when you save.</p>
          ) : null}
          <input
            ref={fileInput}
            className="visually-hidden"
            type="file"
            accept="image/*"
            tabIndex={-1}
            aria-label="Profile picture file"
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared so that choosing the same file again still counts as a choice.
              event.target.value = '';
              if (file) void choose(file);
            }}
          />
          {error ? (
            <p className="profile-field-error" id={errorId} role="alert">
              {error}
            </p>
          ) : null}
          {progress !== null ? (
            <ProgressBar fraction={progress} label="Uploading picture" text="Uploading picture…" />
          ) : null}
        </div>
      </div>
    </section>
  );
}
