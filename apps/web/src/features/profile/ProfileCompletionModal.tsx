import { useId } from 'react';
import { Dialog } from '../../components/Dialog';
import type { ProfileCompletion } from './completion';
import './completion-modal.css';

/** What a complete profile brings (spec 000, section 2). */
export const PROFILE_BENEFITS = [
  'Better matching with students like you',
  'More meaningful conversations',
  'Access to all Random Talk features',
  'An enhanced experience across Campus Talk',
] as const;

interface Props {
  completion: ProfileCompletion;
  onCancel(): void;
  onComplete(): void;
}

/** 'Complete Your Profile': shown when Random Talk is opened before college, course and year are set. */
export function ProfileCompletionModal({ completion, onCancel, onComplete }: Props) {
  const introId = useId();
  const meterId = useId();
  const { completed, missing, percent } = completion;
  return (
    <Dialog
      title="Complete Your Profile"
      onClose={onCancel}
      size="narrow"
      closeButton={false}
      describedBy={introId}
    >
      <p className="modal__text" id={introId}>
        Random Talk needs your college, branch or course, and year of study.
      </p>
      <div className="completion">
        <div className="completion__head">
          <span id={meterId}>Profile completion</span>
          <strong>{percent}%</strong>
        </div>
        <div
          className="completion__bar"
          role="progressbar"
          aria-labelledby={meterId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span className="completion__fill" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <ul className="completion__items" aria-label="Profile items">
        {completed.map((item) => (
          <li key={item} className="completion__item completion__item--done">
            <span className="completion__mark" aria-hidden="true">
              ✓
            </span>
            <span>
              {item}
              <span className="visually-hidden">: completed</span>
            </span>
          </li>
        ))}
        {missing.map((item) => (
          <li key={item} className="completion__item completion__item--missing">
            <span className="completion__mark" aria-hidden="true">
              !
            </span>
            <span>
              {item}
              <span className="visually-hidden">: missing</span>
            </span>
          </li>
        ))}
      </ul>
      <div className="completion__benefits">
        <h3 className="completion__subtitle">Why complete your profile?</h3>
        <ul className="completion__benefit-list">
          {PROFILE_BENEFITS.map((benefit) => (
            <li key={benefit}>{benefit}</li>
          ))}
        </ul>
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button--primary" onClick={onComplete} data-autofocus>
          Complete Profile
        </button>
      </div>
    </Dialog>
  );
}
