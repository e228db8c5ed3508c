import { useId } from 'react';
import type { User } from '@campus/protocol';
import { collegeName } from './completion';
import { yearText } from './ProfileSummary';
import { placeOf } from './college-picker/CollegeSearch';

/** What 'About Me' says before the student writes a bio. */
export const DEFAULT_BIO =
  "Hi there! I haven't written anything about myself yet. Use Edit Profile to add a few words about you.";

const NA = 'N/A';

/** Read mode: 'About Me' and the Education cards (course, college, year; 'N/A' for what is missing). */
export function ProfileDetails({ user }: { user: User }) {
  const aboutId = useId();
  const educationId = useId();
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
    </>
  );
}
