/**
 * Base of every module's own exception types (`auth.exceptions.ts`, `members.exceptions.ts`).
 * Services throw these; the global `ApiExceptionFilter` maps each type to its HTTP status and the
 * `ApiErrorBody` shape. `message` is the text shown to the user.
 */
export abstract class GroveException extends Error {
  /**
   * @param message the text shown to the user
   * @param fieldErrors optional per-field messages (sent as `ApiErrorBody.fieldErrors`)
   */
  constructor(
    message: string,
    readonly fieldErrors?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A request broke one or more field rules. → 400 with `fieldErrors`; the first field's message is
 * the `message` (or `fallback` when `fieldErrors` is empty).
 */
export abstract class FieldErrorsException extends GroveException {
  constructor(fieldErrors: Record<string, string>, fallback: string) {
    super(Object.values(fieldErrors)[0] ?? fallback, fieldErrors);
  }
}
