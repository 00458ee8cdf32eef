import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ApiErrorBody } from '@grove/contracts';

/**
 * Turns class-validator errors into the `ApiErrorBody` shape: `message` is the first field's
 * message, `fieldErrors` has one message per field (the first failed rule of that field).
 */
export function validationErrorBody(errors: ValidationError[]): ApiErrorBody {
  const fieldErrors: Record<string, string> = {};
  const collect = (list: ValidationError[], prefix: string): void => {
    for (const error of list) {
      const field = prefix + error.property;
      const first = Object.values(error.constraints ?? {})[0];
      if (first && !(field in fieldErrors)) fieldErrors[field] = first;
      if (error.children?.length) collect(error.children, `${field}.`);
    }
  };
  collect(errors, '');
  const message = Object.values(fieldErrors)[0] ?? 'Invalid request';
  return { statusCode: 400, message, fieldErrors };
}

/** The global pipe: whitelist + forbid unknown fields + transform, errors as `ApiErrorBody` (400). */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new BadRequestException(validationErrorBody(errors)),
  });
}
