import { useId, useState, type FormEvent } from 'react';
import type { ApproveCollegeRequest, IndiaStateCode, ManualCollegeItem } from '@campus/protocol';
import { Dialog } from '../../../components/Dialog';
import { countryName } from './colleges-api';
import { IndiaStateSelect } from '../../profile/college-picker/PlaceSelects';

interface Props {
  college: ManualCollegeItem;
  busy: boolean;
  /** Why the approval failed, shown in the dialog while it stays open. */
  error: string | null;
  onApprove(body: ApproveCollegeRequest): void;
  onCancel(): void;
}

const CITY_MAX = 100;

/**
 * Approve: the college joins the picker's list of its country. India's lists are per state, so the admin
 * picks the state there; without one the college is listed but in no state's list.
 */
export function ApproveCollegeDialog({ college, busy, error, onApprove, onCancel }: Props) {
  const stateHintId = useId();
  const cityId = useId();
  const errorId = useId();
  const india = college.country === 'IN';
  const [stateCode, setStateCode] = useState<IndiaStateCode | ''>('');
  const [city, setCity] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    const body: ApproveCollegeRequest = {};
    if (india && stateCode) body.stateCode = stateCode;
    if (city.trim()) body.city = city.trim();
    onApprove(body);
  }

  return (
    <Dialog title={`Approve ${college.name}`} onClose={onCancel} size="narrow">
      <form className="admin-college-form" noValidate onSubmit={submit}>
        <p className="modal__text">
          It joins the college list of {countryName(college.country)}, where students can pick it.
        </p>
        {india ? (
          <div>
            <IndiaStateSelect
              value={stateCode}
              emptyLabel="No state"
              describedBy={stateHintId}
              autoFocus
              onChange={setStateCode}
            />
            <p className="field__hint" id={stateHintId}>
              {stateCode
                ? 'Students will find it after choosing this state.'
                : 'Without a state it is listed but appears in no state’s list, so the picker will not offer it.'}
            </p>
          </div>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor={cityId}>
            City (optional)
          </label>
          <input
            id={cityId}
            className="field__input"
            type="text"
            maxLength={CITY_MAX}
            autoComplete="off"
            value={city}
            onChange={(event) => setCity(event.target.value)}
          />
        </div>
        {error ? (
          <p className="form-message form-message--error" role="alert" id={errorId}>
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Approving…' : 'Approve'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
