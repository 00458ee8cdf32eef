import {
  useForm,
  type FieldError,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormProps,
} from 'react-hook-form';
import { ApiError, applyFieldErrors } from '@grove/web-data-access';
import { fieldRules, type ContractValidator } from './field-rules';

/** Options of {@link useContractForm}: react-hook-form's own (`defaultValues`, `mode`, …) plus these. */
export interface ContractFormOptions<V extends FieldValues> extends UseFormProps<V> {
  /** Fields whose text is trimmed before `onSubmit` sees it (the API trims the same fields). */
  trim?: readonly Path<V>[];
  /**
   * Fields that take the server's per-field messages (an ApiError's `fieldErrors`, e.g. a 400's)
   * when `onSubmit` rejects; other fields and other errors are left to `onError`.
   */
  fields?: readonly Path<V>[];
  /**
   * The API's name of a form field where the two differ, e.g. `{ membershipPrice:
   * 'membershipPriceCents' }` for a form that types dollars and sends cents: that server field's
   * message lands on the form field.
   */
  serverNames?: Partial<Record<Path<V>, string>>;
  /** Called with the valid, trimmed values; a rejection goes to `fields` and `onError`. */
  onSubmit: (values: V) => Promise<unknown>;
  /** Called after the server's field messages are placed, with whatever `onSubmit` threw. */
  onError?: (error: unknown) => void;
  /**
   * For a validator that answers one message for the whole form (e.g. `validateSignupInput`):
   * called with that message instead of `onSubmit` (it is also the form's `errors.root`).
   */
  onInvalid?: (message: string) => void;
}

/**
 * A react-hook-form form checked by a contracts validator (`values → { field: message }`, e.g.
 * `validateContactInput`; or `values → message | null` for a form that shows one message, e.g.
 * `validateSignupInput`, then given to `onInvalid`), so the form shows exactly the API's rules and
 * docs/product.md#validation messages. On a valid submit the `trim` fields are trimmed and `onSubmit` runs (the form is busy
 * meanwhile); if it rejects, the server's per-field messages land on the `fields` and `onError`
 * gets the error.
 * @returns react-hook-form's form, plus `submit` (the `<form onSubmit>` handler), `rule(name)`
 *   (the contract's check for one field) and `field(name, options?)` → `{ error, ...register }`
 *   for a TextField / TextArea
 */
export function useContractForm<V extends FieldValues>(
  validator: ContractValidator<V>,
  {
    trim = [],
    fields = [],
    serverNames,
    onSubmit,
    onError,
    onInvalid,
    ...formOptions
  }: ContractFormOptions<V>,
) {
  const form = useForm<V>(formOptions);
  const rule = fieldRules<V>(validator);

  const submit = form.handleSubmit(async (values) => {
    const trimmed = { ...values };
    for (const name of trim) {
      const value = trimmed[name];
      if (typeof value === 'string') (trimmed as Record<string, unknown>)[name] = value.trim();
    }
    const whole = validator(trimmed);
    if (typeof whole === 'string') {
      form.setError('root', { message: whole });
      onInvalid?.(whole);
      return;
    }
    try {
      await onSubmit(trimmed);
    } catch (error) {
      applyFieldErrors(withFormNames(error, fields, serverNames), form.setError, fields);
      onError?.(error);
    }
  });

  const field = <N extends Path<V>>(name: N, options?: RegisterOptions<V, N>) => ({
    error: (form.formState.errors as Record<string, FieldError | undefined>)[name]?.message,
    ...form.register(name, { validate: rule(name as keyof V), ...options } as RegisterOptions<
      V,
      N
    >),
  });

  return { ...form, submit, rule, field };
}

/** `error` with its per-field messages under the form's names (`serverNames`), else as it is. */
function withFormNames<F extends string>(
  error: unknown,
  fields: readonly F[],
  serverNames: Partial<Record<F, string>> | undefined,
): unknown {
  if (!serverNames || !(error instanceof ApiError)) return error;
  const fieldErrors: Record<string, string> = { ...error.fieldErrors };
  for (const field of fields) {
    const message = error.fieldErrors[serverNames[field] ?? field];
    if (message) fieldErrors[field] = message;
  }
  return new ApiError(error.status, error.message, fieldErrors);
}
