import { MESSAGES } from '../common/messages';
import type { Unchecked } from '../common/field-rules';

/** The login form's fields (`POST /api/auth/login`). */
export interface LoginInput {
  email: string;
  password: string;
}

/**
 * Checks the login form (docs/product.md#validation-login): an email (after trimming) and a
 * password are both needed, else 'Please add to email and password fields'.
 * @returns that message, or null when the form may be sent
 */
export function validateLoginInput(input: Unchecked<LoginInput>): string | null {
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  return email && password ? null : MESSAGES.loginEmpty;
}
