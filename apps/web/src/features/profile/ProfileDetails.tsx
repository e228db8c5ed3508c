import { useId } from 'react';
import type { User } from '@campus/protocol';
import { collegeName } from './completion';
import { yearText } from './ProfileSummary';
import { placeOf } from './college-picker/CollegeSearch';

/** What 'About Me' says before the student writes a bio. */
export const DEFAULT_BIO =
  "Hi there! I haven't written anything about myself yet. Use Edit Profile to add a few words about you.";

const NA = 'N/A';

/**
 * Read mode: 'About Me', the Education cards (course, college, year) and 'Interests & Skills' (what focused
 * talk matches on); 'N/A' for what is missing.
 */
export function ProfileDetails({ user }: { user: User }) {
  const aboutId = useId();
  const educationId = useId();
  const skillsId = useId();
  const interests = user.interests ?? [];
  const bio = user.bio?.trim();
  const college = collegeName(user.college);
  const place = user.college && typeof user.college !== 'string' ? placeOf(user.college) : '';
  return (
    <>
      <section className="profile-section" aria-labelledby={aboutId}>
        <h3 className="profile-section__title" id={aboutId}>
          About Me
        </h3>
        <p className={`profile-about${bio ? '' : ' profile-about--empty'}`}>{bio || DEFAULT_BIO}</p>
      </section>
      <section className="profile-section" aria-labelledby={educationId}>
        <h3 className="profile-section__title" id={educationId}>
          Education
        </h3>
        <dl className="education-cards">
          <div className="education-card">
            <dt className="education-card__label">Course</dt>
            <dd className="education-card__value">{user.course?.trim() || NA}</dd>
          </div>
          <div className="education-card">
            <dt className="education-card__label">College</dt>
            <dd className="education-card__value">
              {college || NA}
              {college && place ? <span className="education-card__sub">{place}</span> : null}
            </dd>
          </div>
          <div className="education-card">
            <dt className="education-card__label">Year</dt>
            <dd className="education-card__value">{yearText(user.year) ?? NA}</dd>
          </div>
        </dl>
      </section>
      <section className="profile-section" aria-labelledby={skillsId}>
        <h3 className="profile-section__title" id={skillsId}>
          Interests &amp; Skills
        </h3>
        {interests.length > 0 ? (
          <ul className="profile-chips" aria-label="Interests">
            {interests.map((interest) => (
              <li key={interest} className="profile-chip profile-chip--static">
                {interest}
              </li>
            ))}
          </ul>
        ) : (
          <p className="profile-about profile-about--empty">No interests yet.</p>
        )}
        <dl className="education-cards">
          <div className="education-card">
            <dt className="education-card__label">Skill Level</dt>
            <dd className="education-card__value">{user.skillLevel ?? NA}</dd>
          </div>
          <div className="education-card">
            <dt className="education-card__label">Branch/Major</dt>
            <dd className="education-card__value">{user.branch ?? NA}</dd>
          </div>
        </dl>
      </section>
    </>
  );
}
