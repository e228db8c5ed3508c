import { useId, useState } from 'react';
import {
  COLLEGE_MSG,
  DEFAULT_COLLEGE_COUNTRY,
  INDIA_STATES,
  collegeListPath,
  isCollegeCountry,
  type CollegeCountryCode,
  type CollegeOption,
  type IndiaStateCode,
  type User,
} from '@campus/protocol';
import type { CollegeChoice } from '../profile-body';
import { CollegeSearch, placeOf } from './CollegeSearch';
import { ManualCollege } from './ManualCollege';
import { CountrySelect, IndiaStateSelect } from './PlaceSelects';
import { useCollegeList } from './useCollegeList';
import './college-picker.css';

interface Props {
  /** A new choice; null keeps `current`. */
  value: CollegeChoice | null;
  /** The college stored on the profile. */
  current: User['college'];
  onChange(choice: CollegeChoice | null): void;
  /** The college of the student's academic e-mail address, when the server knows it. */
  suggestion?: CollegeOption | null;
  /** The manual name's problem ('College name is required.'). */
  error?: string | null;
}

/** Starts where the stored college is (its country, and for India its state), else India with no state. */
function startingPlace(current: User['college']): {
  country: CollegeCountryCode;
  state: IndiaStateCode | '';
} {
  if (!current || typeof current === 'string' || !isCollegeCountry(current.country))
    return { country: DEFAULT_COLLEGE_COUNTRY, state: '' };
  const state = INDIA_STATES.find((s) => s.name === current.stateName)?.code ?? '';
  return { country: current.country, state: current.country === 'IN' ? state : '' };
}

function chosen(
  value: CollegeChoice | null,
  current: User['college'],
): { name: string; place: string } | null {
  if (value?.kind === 'option') return { name: value.option.name, place: placeOf(value.option) };
  if (value?.kind === 'manual') return null;
  if (!current) return null;
  if (typeof current === 'string') return current.trim() ? { name: current, place: '' } : null;
  return { name: current.name, place: placeOf(current) };
}

/**
 * The college picker (spec 000, section 2): one of 10 countries (India first and the default), for India a
 * state first, then a search by name, city or state name with at most 10 suggestions, and 'Add manually'
 * when nothing matches.
 */
export function CollegePicker({ value, current, onChange, suggestion, error }: Props) {
  const hintId = useId();
  const [place, setPlace] = useState(() => startingPlace(current));
  const india = place.country === 'IN';
  const path = india && !place.state ? null : collegeListPath(place.country, place.state || undefined);
  const list = useCollegeList(path);
  const selected = chosen(value, current);
  const offerSuggestion =
    suggestion &&
    !(value?.kind === 'option' && value.option.id === suggestion.id) &&
    selected?.name !== suggestion.name;

  return (
    <fieldset className="college-picker">
      <legend className="field__label">College</legend>
      <p className="college-picker__selected" aria-live="polite">
        {selected ? (
          <>
            <span className="college-picker__selected-name">{selected.name}</span>
            {selected.place ? <span className="college-picker__selected-place">{selected.place}</span> : null}
          </>
        ) : value?.kind === 'manual' ? (
          'Adding your college by name'
        ) : (
          'No college chosen yet'
        )}
      </p>
      {offerSuggestion ? (
        <div className="college-picker__suggestion">
          <span className="college-picker__suggestion-label">Suggested from your e-mail</span>
          <span className="college-picker__selected-name">{suggestion.name}</span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => onChange({ kind: 'option', option: suggestion })}
          >
            Use this college
          </button>
        </div>
      ) : null}
      {value?.kind === 'manual' ? (
        <ManualCollege
          name={value.name}
          error={error}
          onName={(name) => onChange({ kind: 'manual', name })}
          onBack={() => onChange(null)}
        />
      ) : (
        <>
          <div className="college-picker__place">
            <CountrySelect value={place.country} onChange={(country) => setPlace({ country, state: '' })} />
            {india ? (
              <IndiaStateSelect
                value={place.state}
                describedBy={place.state ? undefined : hintId}
                onChange={(state) => setPlace({ country: 'IN', state })}
              />
            ) : null}
          </div>
          {india && !place.state ? (
            <p className="field__hint" id={hintId}>
              {COLLEGE_MSG.selectState}
            </p>
          ) : null}
          <CollegeSearch
            key={path ?? 'none'}
            list={list}
            enabled={path !== null}
            onPick={(option) => onChange({ kind: 'option', option })}
            onManual={(query) => onChange({ kind: 'manual', name: query.trim() })}
          />
        </>
      )}
    </fieldset>
  );
}
