import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { useFieldAria } from './field-aria';
import './field.css';

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
  const { controlProps, errorId, hintId } = useFieldAria(id, error, hint);
  return (
    <div className={['g-field', className].filter(Boolean).join(' ')}>
      <label className="g-field__label" htmlFor={controlProps.id}>
        {label}
      </label>
      <input ref={ref} className="g-field__input" {...controlProps} {...rest} />
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
