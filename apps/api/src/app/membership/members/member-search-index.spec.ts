import { MemberSearchIndex, type MemberSearchEntry } from './member-search-index';

// Members in date order; ranks as PostgreSQL would give them for lower(name), id and lower(email), id.
const entries: MemberSearchEntry[] = [
  { id: 'a', name: 'priya patel', email: 'priya@gym.com', nameRank: 3, emailRank: 3 },
  { id: 'b', name: 'sam patel', email: 'sam@patel.net', nameRank: 4, emailRank: 4 },
  { id: 'c', name: 'ava chen', email: 'ava.patel@gym.com', nameRank: 1, emailRank: 1 },
  { id: 'd', name: 'noah kim', email: 'noah@gym.com', nameRank: 2, emailRank: 2 },
];
const index = new MemberSearchIndex('7', entries);

describe('MemberSearchIndex', () => {
  it('finds every member whose name or email contains the text, each once, in date order', () => {
    expect(index.search('patel', 'createdAt', 'asc')).toEqual(['a', 'b', 'c']);
    expect(index.search('patel', 'createdAt', 'desc')).toEqual(['c', 'b', 'a']);
    expect(index.search('gym.com', 'createdAt', 'asc')).toEqual(['a', 'c', 'd']);
  });

  it("orders matches by the members' places by name or email, both ways", () => {
    expect(index.search('patel', 'memberName', 'asc')).toEqual(['c', 'a', 'b']);
    expect(index.search('patel', 'memberName', 'desc')).toEqual(['b', 'a', 'c']);
    expect(index.search('a', 'memberEmail', 'asc')).toEqual(['c', 'd', 'a', 'b']);
  });

  it('gives one page of the matches in either order, with the number of all matches', () => {
    expect(index.searchPage('a', 'memberEmail', 'asc', 1, 2)).toEqual({
      ids: ['d', 'a'],
      total: 4,
    });
    expect(index.searchPage('a', 'memberEmail', 'desc', 1, 2)).toEqual({
      ids: ['a', 'd'],
      total: 4,
    });
    expect(index.searchPage('patel', 'createdAt', 'desc', 2, 50)).toEqual({ ids: ['a'], total: 3 });
    expect(index.searchPage('patel', 'createdAt', 'asc', 3, 50)).toEqual({ ids: [], total: 3 });
  });

  it('never matches across a name and its email or across two members', () => {
    // "patelpriya" would only appear if one member's email ran into the next member's name.
    expect(index.search('gym.comsam', 'createdAt', 'asc')).toEqual([]);
    expect(index.search('kimnoah', 'createdAt', 'asc')).toEqual([]);
    expect(index.search('\u0000', 'createdAt', 'asc')).toEqual([]);
  });

  it('matches the first and the last member, and everyone for empty text', () => {
    expect(index.search('priya', 'createdAt', 'asc')).toEqual(['a']);
    expect(index.search('noah@gym.com', 'createdAt', 'asc')).toEqual(['d']);
    expect(index.search('', 'createdAt', 'asc')).toEqual(['a', 'b', 'c', 'd']);
    expect(index.size).toBe(4);
    expect(index.version).toBe('7');
  });

  it('answers an empty business with no match', () => {
    expect(new MemberSearchIndex('0', []).search('a', 'memberName', 'asc')).toEqual([]);
  });
});
