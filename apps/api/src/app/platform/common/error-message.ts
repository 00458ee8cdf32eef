/** The text of anything thrown, for log lines and error messages: an Error's message, else `String(thrown)`. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
