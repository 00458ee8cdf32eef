import { forwardRef, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { useFieldAria } from './field-aria';
import './field.css';

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
  const { controlProps, errorId, hintId } = useFieldAria(id, error, hint);
  return (
    <div className={['g-field', className].filter(Boolean).join(' ')}>
      <label className="g-field__label" htmlFor={controlProps.id}>
        {label}
      </label>
      <textarea
        ref={ref}
        rows={rows}
        className="g-field__input g-field__textarea"
        {...controlProps}
        {...rest}
      />
      {(hint || error) && (
        <div className="g-field__foot">
          {error ? (
            <div id={errorId} className="g-field__error">
              {error}
            </div>
          ) : (
            <span />
          )}
          {hint && (
            <div id={hintId} className="g-field__hint">
              {hint}
            </div>
          )}
        </div>
      )}
    </div>
  );
});
