import { useCallback, useId, useState } from 'react';
import {
  useController,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
} from 'react-hook-form';
import { MESSAGES } from '@grove/contracts';
import { ApiError } from '@grove/web-data-access';
import { useCaptchaConfig } from './captcha-config';
import { Alert, Spinner } from '@grove/web-ui';
import { CaptchaField } from './CaptchaField';
import './captcha.css';

/** A public form's values with the captcha's solution (posted as `captcha`). */
type WithCaptcha = FieldValues & { captcha: string };

/** Props of {@link FormCaptcha}, from {@link useFormCaptcha}'s `props`. */
export interface FormCaptchaProps {
  /** Changes to remount the widget, so a used or rejected solution is never sent twice. */
  resetKey: number;
  onChange: (token: string | null) => void;
  /** The field's error ('Please complete the captcha'), shown under the widget. */
  error?: string;
}

/**
 * Connects a react-hook-form form's `captcha` field to {@link FormCaptcha}: required with
 * 'Please complete the captcha' (docs/product.md#validation-contact "captcha required"), set to the widget's solution.
 * @returns `props` for `<FormCaptcha>`, `reset()` that empties the field and gives the widget
 *   a fresh challenge (after a successful send), and `resetAfterError(error)` that does so after a
 *   failed send unless only input fields were refused: the API checks fields before the captcha,
 *   so anything else may have used up the solution
 */
export function useFormCaptcha<T extends WithCaptcha>({
  control,
  setValue,
}: Pick<UseFormReturn<T>, 'control' | 'setValue'>) {
  const [resetKey, setResetKey] = useState(0);
  const name = 'captcha' as Path<T>;
  const { field, fieldState } = useController({
    control,
    name,
    rules: { validate: (value) => !!value || MESSAGES.captchaRequired },
  });
  const setToken = field.onChange;
  const onChange = useCallback((token: string | null) => setToken(token ?? ''), [setToken]);
  const reset = useCallback(() => {
    setValue(name, '' as PathValue<T, Path<T>>);
    setResetKey((key) => key + 1);
  }, [setValue, name]);
  const resetAfterError = (error: unknown) => {
    const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
    if (!Object.keys(fieldErrors).length || 'captcha' in fieldErrors) reset();
  };
  const props: FormCaptchaProps = { resetKey, onChange, error: fieldState.error?.message };
  return { props, reset, resetAfterError };
}

/**
 * The captcha of Grove's public forms (contact, the landing page's Learn More): asks the API which
 * one to show (`GET /api/captcha`: altcha by default, reCAPTCHA or Turnstile when configured),
 * renders it with {@link CaptchaField}, and its error below.
 */
export function FormCaptcha({ resetKey, onChange, error }: FormCaptchaProps) {
  const config = useCaptchaConfig();
  const errorId = useId();
  return (
    <>
      {config.isPending ? (
        <Spinner label="Loading the captcha…" />
      ) : config.data ? (
        <CaptchaField
          key={resetKey}
          config={config.data}
          onChange={onChange}
          describedBy={error ? errorId : undefined}
        />
      ) : (
        <Alert>{MESSAGES.captchaUnavailable}</Alert>
      )}
      {error && (
        <div id={errorId} className="g-field__error mk-captcha__error">
          {error}
        </div>
      )}
    </>
  );
}
