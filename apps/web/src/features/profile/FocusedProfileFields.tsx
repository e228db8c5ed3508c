import { useId } from 'react';
import {
  BRANCH_OPTIONS,
  INTEREST_OPTIONS,
  PROFILE,
  SKILL_LEVELS,
  type Branch,
  type SkillLevel,
} from '@campus/protocol';
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
  const skillId = useId();
  const branchId = useId();
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
        <div className="field">
          <label className="field__label" htmlFor={skillId}>
            Skill Level
          </label>
          <select
            id={skillId}
            className="field__input"
            value={draft.skillLevel}
            onChange={(event) => edit({ skillLevel: event.target.value as SkillLevel | '' })}
          >
            <option value="">Not set</option>
            {SKILL_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={branchId}>
            Branch/Major
          </label>
          <select
            id={branchId}
            className="field__input"
            value={draft.branch}
            onChange={(event) => edit({ branch: event.target.value as Branch | '' })}
          >
            <option value="">Not set</option>
            {BRANCH_OPTIONS.map((branch) => (
              <option key={branch} value={branch}>
                {branch}
              </option>
            ))}
          </select>
        </div>
      </div>
    </section>
  );
}
