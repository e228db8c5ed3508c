import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { PROFILE, type User } from '@campus/protocol';
import { CollegePicker } from './college-picker/CollegePicker';
import { FocusedProfileFields } from './FocusedProfileFields';
import { PictureField } from './PictureField';
import { draftOf, draftProblem, type DraftField, type ProfileDraft } from './profile-body';
import type { PictureDraft } from './picture';
import { useCollegeSuggestion } from './useCollegeSuggestion';
import { useProfileSave } from './useProfileSave';

interface Props {
  user: User;
  onSaved(): void;
  onCancel(): void;
}

/** Edit mode: picture, education details, interests and skills, and bio; Save Changes sends them, Cancel discards them. */
export function ProfileEditor({ user, onSaved, onCancel }: Props) {
  const titleId = useId();
  const courseId = useId();
  const yearId = useId();
  const bioId = useId();
  const educationId = useId();
  const aboutId = useId();
  const [draft, setDraft] = useState<ProfileDraft>(() => draftOf(user));
  const [picture, setPicture] = useState<PictureDraft>({ kind: 'keep' });
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ field: DraftField; message: string } | null>(null);
  const suggestion = useCollegeSuggestion();
  const { saving, progress, error, save } = useProfileSave();
  const title = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // Focus moves at commit (not after paint), so a keyboard user lands on the form at once.
  useLayoutEffect(() => title.current?.focus(), []);

  const edit = (change: Partial<ProfileDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setProblem(null);
  };
  const fieldError = (field: DraftField) => (problem?.field === field ? problem.message : null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found = draftProblem(draft);
    setProblem(found);
    if (found) {
      form.current?.querySelector<HTMLElement>(`[data-field="${found.field}"]`)?.focus();
      return;
    }
    const result = await save(user, draft, picture, () => setPicture({ kind: 'keep' }));
    if (result === 'saved') onSaved();
  };

  return (
    <form
      ref={form}
      className="profile-editor"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <h2 className="profile-editor__title" id={titleId} ref={title} tabIndex={-1}>
        Edit Profile
      </h2>
      <PictureField
        user={user}
        draft={picture}
        onChange={setPicture}
        error={pictureError}
        onError={setPictureError}
        progress={progress}
        disabled={saving}
      />

      <section className="profile-section" aria-labelledby={educationId}>
        <h3 className="profile-section__title" id={educationId}>
          Education Details
        </h3>
        <CollegePicker
          value={draft.college}
          current={user.college}
          onChange={(college) => edit({ college })}
          suggestion={suggestion}
          error={fieldError('college')}
        />
        <div className="profile-fields">
          <div className="field">
            <label className="field__label" htmlFor={courseId}>
              Course / Major
            </label>
            <input
              id={courseId}
              data-field="course"
              className="field__input"
              type="text"
              autoComplete="off"
              placeholder="e.g. Computer Science"
              maxLength={PROFILE.maxCourseLength}
              value={draft.course}
              onChange={(event) => edit({ course: event.target.value })}
            />
            <FieldError message={fieldError('course')} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={yearId}>
              Year of Study
            </label>
            <input
              id={yearId}
              data-field="year"
              className="field__input"
              type="number"
              inputMode="numeric"
              min={PROFILE.minYear}
              max={PROFILE.maxYear}
              step={1}
              placeholder="1–10"
              value={draft.year}
              aria-invalid={fieldError('year') ? true : undefined}
              onChange={(event) => edit({ year: event.target.value })}
            />
            <FieldError message={fieldError('year')} />
          </div>
        </div>
      </section>

      <FocusedProfileFields draft={draft} edit={edit} error={fieldError('interests')} />

      <section className="profile-section" aria-labelledby={aboutId}>
        <h3 className="profile-section__title" id={aboutId}>
          About Me
        </h3>
        <div className="field">
          <label className="field__label" htmlFor={bioId}>
            Bio
          </label>
          <textarea
            id={bioId}
            data-field="bio"
            className="field__input profile-bio"
            rows={4}
            maxLength={PROFILE.maxBioLength}
            placeholder="A few words about you: interests, clubs, what you would like to talk about"
            value={draft.bio}
            onChange={(event) => edit({ bio: event.target.value })}
          />
          <p className="field__hint profile-bio__count">
            {draft.bio.length}/{PROFILE.maxBioLength}
          </p>
          <FieldError message={fieldError('bio')} />
        </div>
      </section>

      {error ? (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="profile-editor__actions">
        <button type="button" className="button button--ghost" disabled={saving} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

function FieldError({ message }: { message: string | null }) {
  return message ? (
    <p className="profile-field-error" role="alert">
      {message}
    </p>
  ) : null;
}
