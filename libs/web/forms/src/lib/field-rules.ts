/**
 * Turns a contracts validator (`values → { field: message }`, e.g. `validateContactInput`) into
 * per-field `validate` functions for a form library such as react-hook-form:
 * `register('email', { validate: rule('email') })`. The rule checks the whole form's values, so
 * rules that compare fields (a password confirmation) work, and the form shows exactly the API's
 * rules and SPEC messages. Typed structurally: this library does not depend on react-hook-form.
 * @returns `rule(field)` → `(value, values) => message | true`
 */
export function fieldRules<V>(validator: (values: V) => Partial<Record<keyof V, string>>) {
  return (field: keyof V) =>
    (_value: unknown, values: V): string | true =>
      validator(values)[field] ?? true;
}
