import { useId } from 'react';
import {
  COLLEGE_COUNTRIES,
  INDIA_STATES,
  isCollegeCountry,
  type CollegeCountryCode,
  type IndiaStateCode,
} from '@campus/protocol';

/** The picker's country choice (the spec's 10, India first), also used by the admins' college tools. */
export function CountrySelect({
  value,
  onChange,
}: {
  value: CollegeCountryCode;
  onChange(country: CollegeCountryCode): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Country
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => {
          if (isCollegeCountry(event.target.value)) onChange(event.target.value);
        }}
      >
        {COLLEGE_COUNTRIES.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** India's 36 states and union territories; '' is the empty choice, labelled `emptyLabel`. */
export function IndiaStateSelect({
  value,
  onChange,
  emptyLabel = 'Select a state',
  describedBy,
  autoFocus = false,
}: {
  value: IndiaStateCode | '';
  onChange(state: IndiaStateCode | ''): void;
  emptyLabel?: string;
  describedBy?: string;
  /** Marks the select for the dialog's first focus (components/Dialog). */
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        State
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        aria-describedby={describedBy}
        data-autofocus={autoFocus ? true : undefined}
        onChange={(event) => onChange(INDIA_STATES.find((s) => s.code === event.target.value)?.code ?? '')}
      >
        <option value="">{emptyLabel}</option>
        {INDIA_STATES.map((s) => (
          <option key={s.code} value={s.code}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}
