/**
 * Name of the readable (not httpOnly) cookie the API sets next to the httpOnly session cookies,
 * with the refresh cookie's lifetime, and clears with them. It holds no secret (`1`): it only
 * tells the web apps that a session may exist, so a signed-out visitor's page skips the
 * `GET /api/auth/me` + `POST /api/auth/refresh` round trips (and their two 401s) entirely.
 */
export const SESSION_HINT_COOKIE = 'grove_signed_in';
