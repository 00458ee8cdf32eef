import { issueDescriptionDocument, type AdfBlock } from './jira-document';

const reporter = {
  businessName: 'Green Valley Fitness',
  ownerName: 'Sam Lee',
  ownerEmail: 'sam@gv.com',
  userId: 'user-1',
  businessId: 'biz-1',
};

const texts = (block: AdfBlock): string[] =>
  block.type === 'paragraph'
    ? block.content.map((node) => (node.type === 'text' ? node.text : '\n'))
    : ['---'];

describe('issueDescriptionDocument (Jira ADF description)', () => {
  it('is an ADF doc with one paragraph per block and hard breaks for single line breaks', () => {
    const doc = issueDescriptionDocument(
      'The table is empty.\nIt spins forever.\r\n\r\nSince Monday.',
      reporter,
    );
    expect(doc.version).toBe(1);
    expect(doc.type).toBe('doc');
    expect(doc.content[0]).toEqual({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'The table is empty.' },
        { type: 'hardBreak' },
        { type: 'text', text: 'It spins forever.' },
      ],
    });
    expect(doc.content[1]).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: 'Since Monday.' }],
    });
    expect(doc.content[2]).toEqual({ type: 'rule' });
  });

  it('names the business, owner, email and user in a second part', () => {
    const doc = issueDescriptionDocument('Broken', reporter);
    const who = texts(doc.content[doc.content.length - 1]).join('');
    expect(who).toContain('Business: Green Valley Fitness');
    expect(who).toContain('Owner: Sam Lee <sam@gv.com>');
    expect(who).toContain('User id: user-1');
  });

  it('never writes an empty text node (Jira refuses them)', () => {
    const doc = issueDescriptionDocument('a\n\n\n\nb\n   \nc', reporter);
    for (const block of doc.content) {
      if (block.type !== 'paragraph') continue;
      for (const node of block.content)
        if (node.type === 'text') expect(node.text.length).toBeGreaterThan(0);
    }
    expect(doc.content.filter((block) => block.type === 'paragraph')).toHaveLength(4);
  });
});
