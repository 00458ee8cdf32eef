import {
  useForm,
  type FieldError,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormProps,
} from 'react-hook-form';
import { applyFieldErrors } from '@grove/web-data-access';
import { fieldRules } from './field-rules';

/** Options of {@link useContractForm}: react-hook-form's own (`defaultValues`, `mode`, …) plus these. */
export interface ContractFormOptions<V extends FieldValues> extends UseFormProps<V> {
  /** Fields whose text is trimmed before `onSubmit` sees it (the API trims the same fields). */
  trim?: readonly Path<V>[];
  /**
   * Fields that take the server's per-field messages (an ApiError's `fieldErrors`, e.g. a 400's)
   * when `onSubmit` rejects; other fields and other errors are left to `onError`.
   */
  fields?: readonly Path<V>[];
  /** Called with the valid, trimmed values; a rejection goes to `fields` and `onError`. */
  onSubmit: (values: V) => Promise<unknown>;
  /** Called after the server's field messages are placed, with whatever `onSubmit` threw. */
  onError?: (error: unknown) => void;
}

/**
 * A react-hook-form form checked by a contracts validator (`values → { field: message }`, e.g.
 * `validateContactInput`), so the form shows exactly the API's rules and docs/product.md#validation
 * messages. On a valid submit the `trim` fields are trimmed and `onSubmit` runs (the form is busy
 * meanwhile); if it rejects, the server's per-field messages land on the `fields` and `onError`
 * gets the error.
 * @returns react-hook-form's form, plus `submit` (the `<form onSubmit>` handler), `rule(name)`
 *   (the contract's check for one field) and `field(name, options?)` → `{ error, ...register }`
 *   for a TextField / TextArea
 */
export function useContractForm<V extends FieldValues>(
  validator: (values: V) => Partial<Record<keyof V, string>>,
  { trim = [], fields = [], onSubmit, onError, ...formOptions }: ContractFormOptions<V>,
) {
  const form = useForm<V>(formOptions);
  const rule = fieldRules<V>(validator);

  const submit = form.handleSubmit(async (values) => {
    const trimmed = { ...values };
    for (const name of trim) {
      const value = trimmed[name];
      if (typeof value === 'string') (trimmed as Record<string, unknown>)[name] = value.trim();
    }
    try {
      await onSubmit(trimmed);
    } catch (error) {
      applyFieldErrors(error, form.setError, fields);
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
