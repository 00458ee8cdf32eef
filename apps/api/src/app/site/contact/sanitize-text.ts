import sanitizeHtml from 'sanitize-html';

const TEXT_ONLY: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  disallowedTagsMode: 'discard',
};

/** sanitize-html escapes these in text; plain text keeps the characters themselves. */
const ENTITIES: ReadonlyArray<readonly [RegExp, string]> = [
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&quot;/g, '"'],
  [/&#39;/g, "'"],
  [/&amp;/g, '&'],
];

/**
 * docs/product.md#validation "message sanitized before sending": strips every HTML tag and attribute with
 * sanitize-html (no tags allowed; the contents of `<script>`, `<style>`, `<textarea>` and
 * `<option>` go too) and keeps the text: accents, quotes, ampersands and line breaks stay as
 * typed. Repeats until stable, so markup hidden behind entities (`&lt;b&gt;`) is stripped as well.
 * @returns plain text without any tag, trimmed
 */
export function sanitizePlainText(input: string): string {
  let text = input;
  for (let pass = 0; pass < 5; pass++) {
    let next = sanitizeHtml(text, TEXT_ONLY);
    for (const [entity, character] of ENTITIES) next = next.replace(entity, character);
    if (next === text) break;
    text = next;
  }
  return text.trim();
}
