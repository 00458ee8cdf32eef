import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** Props of {@link TextField}: a native input plus its visible label, hint and error. */
export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/**
 * A labelled input. The error is announced (`aria-invalid` + `aria-describedby`) and shown under
 * the field. Forwards its ref so react-hook-form's `register()` works directly.
 */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, id, className, ...rest },
  ref,
) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={['g-field', className].filter(Boolean).join(' ')}>
      <label className="g-field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        className="g-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      />
      {hint && (
        <div id={`${inputId}-hint`} className="g-field__hint">
          {hint}
        </div>
      )}
      {error && (
        <div id={`${inputId}-error`} className="g-field__error">
          {error}
        </div>
      )}
    </div>
  );
});
