import type { MemberRow } from '@grove/contracts';

/** A row of the nested view: the tree, how deep it sits, and the tree it sits under (if on the page). */
export interface NestedRow {
  row: MemberRow;
  /** 0 for a row whose referrer is not on this page; 1 under its referrer; 2 under that one's branch… */
  level: number;
  /** The referrer this row is nested under, or undefined for a top-level row. */
  parent?: MemberRow;
}

/**
 * The Branches list's nested view (issue 25, "trees with their branches nested"), within ONE page
 * of the server's list (its paging, sort and filters unchanged): each row whose referrer is on the
 * same page moves right under it (recursively, in the page's order); a row whose referrer is not
 * on the page stays where the page put it, at level 0. Every row of the page appears exactly once
 * (a referral cycle, which Grove refuses anyway, would leave its rows at level 0).
 * @param rows one page of `GET /api/members`, in its order
 */
export function nestRows(rows: readonly MemberRow[]): NestedRow[] {
  const onPage = new Map(rows.map((row) => [row.id, row]));
  const branchesOf = new Map<string, MemberRow[]>();
  for (const row of rows) {
    const parent = row.referringMemberId;
    if (parent && parent !== row.id && onPage.has(parent))
      branchesOf.set(parent, [...(branchesOf.get(parent) ?? []), row]);
  }
  const out: NestedRow[] = [];
  const placed = new Set<string>();
  const place = (row: MemberRow, level: number, parent?: MemberRow) => {
    if (placed.has(row.id)) return;
    placed.add(row.id);
    out.push({ row, level, parent });
    for (const branch of branchesOf.get(row.id) ?? []) place(branch, level + 1, row);
  };
  for (const row of rows) {
    const parent = row.referringMemberId;
    if (!parent || parent === row.id || !onPage.has(parent)) place(row, 0);
  }
  // Rows only reachable through a cycle: shown flat rather than lost.
  for (const row of rows) place(row, 0);
  return out;
}
