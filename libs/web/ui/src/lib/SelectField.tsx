import { forwardRef, useMemo, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useFieldAria } from './field-aria';
import './field.css';

/** Props of {@link SelectField}: a native select plus its visible label, hint, error and options. */
export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  /** The choices, in order: `value` is sent, `label` is shown. */
  options: readonly { value: string; label: string }[];
  error?: string;
  hint?: ReactNode;
}

/**
 * A labelled native select, the sibling of `TextField` (same label, hint and announced error);
 * native so phones show their own picker and typing a letter jumps to it. Forwards its ref so
 * react-hook-form's `register()` works directly.
 */
export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, error, hint, id, className, ...rest },
  ref,
) {
  const { controlProps, errorId, hintId } = useFieldAria(id, error, hint);
  // The same elements while the options are the same: a form re-rendering on every keystroke does
  // not re-render a long list (about 245 countries).
  const choices = useMemo(
    () =>
      options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      )),
    [options],
  );
  return (
    <div className={['g-field', className].filter(Boolean).join(' ')}>
      <label className="g-field__label" htmlFor={controlProps.id}>
        {label}
      </label>
      <select ref={ref} className="g-field__input g-field__select" {...controlProps} {...rest}>
        {choices}
      </select>
      {hint && (
        <div id={hintId} className="g-field__hint">
          {hint}
        </div>
      )}
      {error && (
        <div id={errorId} className="g-field__error">
          {error}
        </div>
      )}
    </div>
  );
});
