import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { Icon } from '../../components/Icon';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'value' | 'className'>;

interface TextFieldProps extends InputProps {
  label: string;
  value: string;
  onValueChange(value: string): void;
  hint?: ReactNode;
  /** Extra class for the <input> (e.g. the wide-spaced code field). */
  inputClassName?: string;
}

/** A labelled input: the <label for> gives it its accessible name, the hint is announced as its description. */
export function TextField({ label, value, onValueChange, hint, inputClassName, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className={inputClassName ? `field__input ${inputClassName}` : 'field__input'}
        value={value}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface PasswordFieldProps extends Omit<TextFieldProps, 'type'> {
  visible: boolean;
  /** Omit to render the field without its own show/hide control (e.g. a confirmation that follows another). */
  onToggleVisible?: () => void;
}

export function PasswordField(props: PasswordFieldProps) {
  const {
    label,
    value,
    onValueChange,
    hint,
    visible,
    onToggleVisible,
    inputClassName: _unused,
    ...input
  } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        <input
          {...input}
          id={id}
          type={visible ? 'text' : 'password'}
          className={`field__input${onToggleVisible ? ' field__input--with-action' : ''}`}
          value={value}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => onValueChange(event.target.value)}
        />
        {onToggleVisible ? (
          <button
            type="button"
            className="field__action"
            aria-label={visible ? 'Hide password' : 'Show password'}
            aria-pressed={visible}
            onClick={onToggleVisible}
          >
            <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
          </button>
        ) : null}
      </div>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
