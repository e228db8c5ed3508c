import { useId } from 'react';
import { BRANCH_OPTIONS, INTEREST_OPTIONS, PROFILE, SKILL_LEVELS } from '@campus/protocol';
import type { ProfileDraft } from './profile-body';

interface Props {
  draft: ProfileDraft;
  edit(change: Partial<ProfileDraft>): void;
  error: string | null;
}

/**
 * Edit mode's 'Interests & Skills': what focused talk matches other students on. Interests are chips
 * (at most PROFILE.maxInterests), skill level and branch/major are selects with 'Not set'.
 */
export function FocusedProfileFields({ draft, edit, error }: Props) {
  const sectionId = useId();
  const interestsId = useId();
  const countId = useId();
  const full = draft.interests.length >= PROFILE.maxInterests;

  const toggle = (interest: (typeof INTEREST_OPTIONS)[number]) =>
    edit({
      interests: draft.interests.includes(interest)
        ? draft.interests.filter((i) => i !== interest)
        : [...draft.interests, interest],
    });

  return (
    <section className="profile-section" aria-labelledby={sectionId}>
      <h3 className="profile-section__title" id={sectionId}>
        Interests &amp; Skills
      </h3>
      <p className="field__hint">Focused Talk matches you with students by these.</p>
      <fieldset
        className="profile-interests"
        aria-labelledby={interestsId}
        aria-describedby={countId}
        data-field="interests"
        tabIndex={-1}
      >
        <legend className="field__label" id={interestsId}>
          Interests
        </legend>
        <div className="profile-chips">
          {INTEREST_OPTIONS.map((interest) => {
            const chosen = draft.interests.includes(interest);
            return (
              <button
                key={interest}
                type="button"
                className="profile-chip"
                aria-pressed={chosen}
                disabled={!chosen && full}
                onClick={() => toggle(interest)}
              >
                {interest}
              </button>
            );
          })}
        </div>
        <p className="field__hint" id={countId}>
          {draft.interests.length}/{PROFILE.maxInterests} chosen
        </p>
        {error ? (
          <p className="profile-field-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
      <div className="profile-fields">
        <OptionSelect
          label="Skill Level"
          options={SKILL_LEVELS}
          value={draft.skillLevel}
          onChange={(skillLevel) => edit({ skillLevel })}
        />
        <OptionSelect
          label="Branch/Major"
          options={BRANCH_OPTIONS}
          value={draft.branch}
          onChange={(branch) => edit({ branch })}
        />
      </div>
    </section>
  );
}

/** One of a fixed list, or 'Not set' (''). */
function OptionSelect<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly T[];
  value: T | '';
  onChange(value: T | ''): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        // The select offers only `options` and '': its value is one of them.
        onChange={(event) => onChange(event.target.value as T | '')}
      >
        <option value="">Not set</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
