import { GROVE_MONTHLY_PRICE_DOLLARS, GROVE_PLAN } from '@grove/contracts';

/** Width and height of an Open Graph image, in pixels (the size Facebook, LinkedIn and Slack show largest). */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Splits `text` into lines of at most `width` characters, at spaces. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A page's Open Graph image as an SVG document (1200×630): Grove's tree mark and name, the page's
 * title as an eyebrow and its headline, on Grove's green. One template for every page; the build
 * turns it into a PNG (link previews do not show SVG).
 * @param page the page's own title (without "· Grove") and its `<h1>` text
 */
export function ogImageSvg({ title, headline }: { title: string; headline: string }): string {
  const lines = wrapText(headline, 26).slice(0, 4);
  const size = lines.length > 3 ? 60 : 68;
  const top = 330 - ((lines.length - 1) * size * 1.15) / 2;
  const text = lines
    .map(
      (line, index) =>
        `<text x="96" y="${Math.round(top + index * size * 1.15)}" font-size="${size}" font-weight="700" fill="#ffffff">${escapeXml(line)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_IMAGE_SIZE.width}" height="${OG_IMAGE_SIZE.height}" viewBox="0 0 1200 630" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">
<rect width="1200" height="630" fill="#226b45"/>
<circle cx="1040" cy="520" r="260" fill="#2f7d52"/>
<circle cx="1120" cy="380" r="150" fill="#3f9a67"/>
<g transform="translate(96 72)"><rect x="22" y="34" width="12" height="40" rx="4" fill="#f4efe6"/><circle cx="28" cy="28" r="28" fill="#dfeee4"/></g>
<text x="180" y="124" font-size="48" font-weight="700" fill="#ffffff">Grove</text>
<text x="96" y="${Math.round(top - size * 1.2)}" font-size="30" fill="#dfeee4">${escapeXml(title)}</text>
${text}
<text x="96" y="566" font-size="28" fill="#dfeee4">$${GROVE_MONTHLY_PRICE_DOLLARS} per month, free until your first ${GROVE_PLAN.freeMembers} members arrive through Grove</text>
</svg>
`;
}
