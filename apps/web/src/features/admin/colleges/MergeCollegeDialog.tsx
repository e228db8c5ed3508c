import { useId, useMemo, useState, type FormEvent } from 'react';
import {
  COLLEGE_MSG,
  collegeListPath,
  isCollegeCountry,
  type CollegeCountryCode,
  type CollegeOption,
  type IndiaStateCode,
  type ManualCollegeItem,
} from '@campus/protocol';
import { Dialog } from '../../../components/Dialog';
import { Spinner } from '../../../components/Spinner';
import { placeOf } from '../../profile/college-picker/CollegeSearch';
import { useCollegeList } from '../../profile/college-picker/useCollegeList';
import { studentsLabel } from './colleges-api';
import { CountrySelect, IndiaStateSelect } from '../../profile/college-picker/PlaceSelects';

interface Props {
  college: ManualCollegeItem;
  busy: boolean;
  error: string | null;
  onMerge(target: CollegeOption): void;
  onCancel(): void;
}

function startingCountry(code: string): CollegeCountryCode {
  return isCollegeCountry(code) ? code : 'IN';
}

/**
 * Merge into…: the listed college the students meant. The same lists the profile's picker searches (a
 * country's, or for India a state's), searched the same way; the choice is confirmed before anything moves.
 */
export function MergeCollegeDialog({ college, busy, error, onMerge, onCancel }: Props) {
  const searchId = useId();
  const summaryId = useId();
  const [country, setCountry] = useState(() => startingCountry(college.country));
  const [state, setState] = useState<IndiaStateCode | ''>('');
  const [query, setQuery] = useState(college.name);
  const [target, setTarget] = useState<CollegeOption | null>(null);
  const india = country === 'IN';
  const path = india && !state ? null : collegeListPath(country, state || undefined);
  const list = useCollegeList(path);
  const results = useMemo(() => list.index.search(query), [list.index, query]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (target) onMerge(target);
  }

  return (
    <Dialog title={`Merge ${college.name}`} onClose={onCancel} size="narrow">
      <form className="admin-college-form" noValidate onSubmit={submit}>
        <p className="modal__text" id={summaryId}>
          {studentsLabel(college.students)} will have the college you choose instead, and “{college.name}” is
          removed.
        </p>
        <div className="admin-college-form__place">
          <CountrySelect
            value={country}
            onChange={(next) => {
              setCountry(next);
              setState('');
              setTarget(null);
            }}
          />
          {india ? (
            <IndiaStateSelect
              value={state}
              autoFocus
              onChange={(next) => {
                setState(next);
                setTarget(null);
              }}
            />
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={searchId}>
            Search listed colleges
          </label>
          <input
            id={searchId}
            className="field__input"
            type="search"
            autoComplete="off"
            spellCheck={false}
            disabled={path === null}
            placeholder={path === null ? COLLEGE_MSG.selectState : 'College name, city or state'}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        {path !== null && list.status === 'loading' ? (
          <p className="admin-college-form__note" role="status">
            <Spinner />
            <span>Loading colleges…</span>
          </p>
        ) : null}
        {list.status === 'ready' && query.trim() && results.length === 0 ? (
          <p className="admin-college-form__note" role="status">
            {COLLEGE_MSG.noneFound}
          </p>
        ) : null}
        {list.status === 'ready' && results.length > 0 ? (
          <fieldset className="admin-college-targets">
            <legend className="visually-hidden">Merge into</legend>
            {results.map((option) => (
              <label key={option.id} className="admin-college-targets__option">
                <input
                  type="radio"
                  name={`${summaryId}-target`}
                  value={option.id}
                  checked={target?.id === option.id}
                  onChange={() => setTarget(option)}
                />
                <span className="admin-college-targets__name">{option.name}</span>
                {placeOf(option) ? (
                  <span className="admin-college-targets__place">{placeOf(option)}</span>
                ) : null}
              </label>
            ))}
          </fieldset>
        ) : null}
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || !target}>
            {busy ? 'Merging…' : target ? `Merge into ${target.name}` : 'Merge'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
