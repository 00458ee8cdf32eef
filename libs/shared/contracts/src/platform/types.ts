import type { Schema } from '@grove/api-contract';

/** The signed-in owner and their business (`GET /api/auth/me`). */
export type SessionUser = Schema<'SessionUser'>;

/** `POST /api/auth/login` body. */
export type LoginRequest = Schema<'LoginDto'>;

/** Every API error reply: `message` is the text to show the user. */
export type ApiErrorBody = Schema<'ApiErrorBody'>;

/** Reply of the public forms and the issue form: `message` is the text to show. */
export type MessageReply = Schema<'MessageReply'>;

/** Which captcha the contact form shows (`GET /api/captcha`); altcha unless keys are configured. */
export type CaptchaProvider = 'altcha' | 'recaptcha' | 'turnstile';

/** `GET /api/captcha` (public): how the contact form renders its captcha. */
export type CaptchaConfig = Schema<'CaptchaConfig'>;
