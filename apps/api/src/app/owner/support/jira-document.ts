/**
 * A minimal Atlassian Document Format (ADF) document, as Jira Cloud REST API v3 expects in rich
 * text fields such as `description` (developer.atlassian.com/cloud/jira/platform/apis/document/
 * structure): `{ version: 1, type: 'doc', content: [block nodes] }`; a `paragraph` holds inline
 * `text` nodes (non-empty `text`) and `hardBreak` nodes (a line break); `rule` is a divider.
 */
export interface AdfDocument {
  version: 1;
  type: 'doc';
  content: AdfBlock[];
}

/** The block nodes Grove writes. */
export type AdfBlock = { type: 'paragraph'; content: AdfInline[] } | { type: 'rule' };

/** The inline nodes Grove writes. */
export type AdfInline =
  { type: 'text'; text: string; marks?: { type: 'strong' }[] } | { type: 'hardBreak' };

/** Who reported an issue (docs/product.md#entities Issue report: "plus the current user's data"). */
export interface IssueReporter {
  businessName: string;
  ownerName: string;
  ownerEmail: string;
  userId: string;
  businessId: string;
}

/** One paragraph per block of text separated by blank lines; single line breaks become `hardBreak`. */
function paragraphs(text: string): AdfBlock[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').map((line) => line.trimEnd()))
    .filter((lines) => lines.some((line) => line.trim()))
    .map((lines) => ({
      type: 'paragraph' as const,
      content: lines.flatMap((line, index): AdfInline[] => {
        const parts: AdfInline[] = index > 0 ? [{ type: 'hardBreak' }] : [];
        if (line) parts.push({ type: 'text', text: line });
        return parts;
      }),
    }));
}

/**
 * The Jira description of an issue report: the reporter's description as paragraphs, a divider,
 * then a paragraph naming the business, the owner (name and email), the user id and business id.
 */
export function issueDescriptionDocument(
  description: string,
  reporter: IssueReporter,
): AdfDocument {
  const line = (label: string, value: string): AdfInline[] => [
    { type: 'text', text: `${label}: `, marks: [{ type: 'strong' }] },
    { type: 'text', text: value || '-' },
  ];
  return {
    version: 1,
    type: 'doc',
    content: [
      ...paragraphs(description),
      { type: 'rule' },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Reported from Grove', marks: [{ type: 'strong' }] },
          { type: 'hardBreak' },
          ...line('Business', reporter.businessName),
          { type: 'hardBreak' },
          ...line('Owner', `${reporter.ownerName} <${reporter.ownerEmail}>`),
          { type: 'hardBreak' },
          ...line('User id', reporter.userId),
          { type: 'hardBreak' },
          ...line('Business id', reporter.businessId),
        ],
      },
    ],
  };
}
