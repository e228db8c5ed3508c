import { OTP_LENGTH } from '@campus/protocol';
import { TextField } from './fields';

/** The one-time code input: digits only, the platform may fill it from the mail or SMS. */
export function CodeField({ value, onValueChange }: { value: string; onValueChange(value: string): void }) {
  return (
    <TextField
      label="Verification code"
      name="one-time-code"
      inputClassName="field__input--code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      placeholder="••••••"
      autoFocus
      value={value}
      onValueChange={(next) => onValueChange(next.replace(/\s+/g, ''))}
    />
  );
}
