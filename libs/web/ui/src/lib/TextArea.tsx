import { forwardRef, useId, type ReactNode, type TextareaHTMLAttributes } from 'react';

/** Props of {@link TextArea}: a native textarea plus its visible label, hint and error. */
export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  /** Shown under the field and read with it, e.g. a live '120/500' character counter. */
  hint?: ReactNode;
}

/**
 * A labelled multi-line input, the sibling of `TextField`: the error is announced
 * (`aria-invalid` + `aria-describedby`) and shown under the field with the hint. Forwards its ref
 * so react-hook-form's `register()` works directly.
 */
export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, error, hint, id, className, rows = 5, ...rest },
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
      <textarea
        ref={ref}
        id={inputId}
        rows={rows}
        className="g-field__input g-field__textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      />
      {(hint || error) && (
        <div className="g-field__foot">
          {error ? (
            <div id={`${inputId}-error`} className="g-field__error">
              {error}
            </div>
          ) : (
            <span />
          )}
          {hint && (
            <div id={`${inputId}-hint`} className="g-field__hint">
              {hint}
            </div>
          )}
        </div>
      )}
    </div>
  );
});
