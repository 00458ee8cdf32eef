/**
 * Turns a contracts validator (`values → { field: message }`, e.g. `validateContactInput`) into
 * per-field `validate` functions for a form library such as react-hook-form:
 * `register('email', { validate: rule('email') })`. The rule checks the whole form's values, so
 * rules that compare fields (a password confirmation) work, and the form shows exactly the API's
 * rules and SPEC messages (a validator that answers one message for the whole form checks no
 * field: every field passes). Typed structurally: this library does not depend on react-hook-form.
 * @returns `rule(field)` → `(value, values) => message | true`
 */
export function fieldRules<V>(validator: ContractValidator<V>) {
  return (field: keyof V) =>
    (_value: unknown, values: V): string | true => {
      const result = validator(values);
      return (typeof result === 'object' && result?.[field]) || true;
    };
}

/**
 * A contracts validator: one message per invalid field (`{ field: message }`, empty when valid),
 * or, for a form that shows one message above its fields (login, signup), the first message that
 * applies or null. The second kind has no per-field checks.
 */
export type ContractValidator<V> = (values: V) => Partial<Record<keyof V, string>> | string | null;
