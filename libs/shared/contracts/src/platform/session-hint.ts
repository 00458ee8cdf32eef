/**
 * Name of the readable (not httpOnly) cookie the API sets next to the httpOnly session cookies,
 * with the refresh cookie's lifetime, and clears with them (`__Host-` prefixed when the API's
 * cookies are Secure). It holds no secret: its presence tells the web apps that a session may
 * exist, so a signed-out visitor's page skips the `GET /api/auth/me` + `POST /api/auth/refresh`
 * round trips (and their two 401s) entirely; its value, random, changes whenever the API issues
 * new session cookies, so a tab can tell that another tab has just refreshed the session.
 */
export const SESSION_HINT_COOKIE = 'grove_signed_in';
