/**
 * User search text as every text filter compares it with `lower(column)`: lowered by JavaScript's
 * `toLowerCase` (the SQL pattern `likeSubstring` and the members search index alike).
 */
export function lowerSearchText(text: string): string {
  return text.toLowerCase();
}

/**
 * Escapes `%`, `_` and `\` so user text is matched literally inside a LIKE pattern, and wraps it
 * for a case-insensitive substring match: `Jo_` → `%jo\_%`.
 */
export function likeSubstring(text: string): string {
  return `%${lowerSearchText(text).replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The SQL condition "any of `columns` contains the pattern in `param`" (case-insensitive), for a
 * pattern made by `likeSubstring`: `(lower(c1) LIKE $n ESCAPE '\' OR lower(c2) LIKE $n ESCAPE '\')`.
 * @param columns trusted column expressions (never user text), e.g. `['m.name', 'm.email']`
 * @param param the statement's parameter holding the pattern, e.g. `'$4'`
 */
export function likeAnyColumn(columns: readonly string[], param: string): string {
  return `(${columns.map((column) => `lower(${column}) LIKE ${param} ESCAPE '\\'`).join(' OR ')})`;
}
