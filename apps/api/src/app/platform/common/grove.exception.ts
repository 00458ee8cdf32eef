import { HttpStatus } from '@nestjs/common';
import type { ApiErrorBody } from '@grove/contracts';

/**
 * Base of every module's own exception types (`auth.exceptions.ts`, `members.exceptions.ts`).
 * Services throw these; each type carries its own HTTP `status` (a subclass that sets none is
 * answered 500) and builds its `ApiErrorBody` reply (`toResponse`), so the global
 * `ApiExceptionFilter` maps by this base type only. `message` is the text shown to the user.
 */
export abstract class GroveException extends Error {
  /** The HTTP status of the reply; each module's type sets its own. */
  readonly status: HttpStatus = HttpStatus.INTERNAL_SERVER_ERROR;

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

  /** The reply body: `{ statusCode: status, message, fieldErrors? }` (`fieldErrors` only when set). */
  toResponse(): ApiErrorBody {
    const { status: statusCode, message, fieldErrors } = this;
    return fieldErrors
      ? { statusCode, message, fieldErrors: { ...fieldErrors } }
      : { statusCode, message };
  }
}

/**
 * A request broke one or more field rules. → 400 with `fieldErrors`; the first field's message is
 * the `message` (or `fallback` when `fieldErrors` is empty).
 */
export abstract class FieldErrorsException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor(fieldErrors: Record<string, string>, fallback: string) {
    super(Object.values(fieldErrors)[0] ?? fallback, fieldErrors);
  }
}
