/**
 * Base of every module's own exception types (`auth.exceptions.ts`, `members.exceptions.ts`).
 * Services throw these; the global `ApiExceptionFilter` maps each type to its HTTP status and the
 * `ApiErrorBody` shape. `message` is the text shown to the user.
 */
export abstract class GroveException extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
