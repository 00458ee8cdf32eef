import { useState, type CSSProperties, type ReactNode } from 'react';
import { ListFrame } from '../../components/list-frame/ListFrame';
import {
  MANAGED_BY_TEXT,
  MESSAGES,
  NO_EMAIL_TEXT,
  type MemberRow,
  type MemberSortKey,
} from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { useMembers } from './api/members';
import { nestRows } from './nest-rows';
import { Button, Card, PageHeader } from '@grove/web-ui';
import { AddTreeModal } from './AddTreeModal';
import { AddBranchModal } from './AddBranchModal';
import { MembershipPrice } from '../../components/membership-price/MembershipPrice';
import { MemberMoney } from '../../components/membership-price/MemberMoney';
import { MindbodyClientState } from './MindbodyClientState';
import { RemoveTreeModal } from './RemoveTreeModal';
import { useBranchesQuery } from './useBranchesQuery';
import { BranchesToolbar } from './BranchesToolbar';
import { ReferralsToMatchCard } from './ReferralsToMatchCard';
import { RewardsToHonour } from './RewardsToHonour';
import { MemberLink } from '../../components/member-link/MemberLink';
import { MemberStatusBadge } from '../../components/member-status/MemberStatusBadge';
import './branches.css';

/**
 * The Branches screen (docs/product.md#branches): the trees table with Member, Branches, Membership (the new
 * price, or 'Pricing…' while Mindbody's price is not read yet), Status (Active, Pending, Ended or
 * Suspended: docs/product.md#states), Discount and Actions; spinner while loading; SPEC's empty text; 'Add New Tree';
 * a member's name opens their profile (issue 14 replaced the 'Feature Coming Soon' panel with
 * it). Paged, sorted, searched and filtered on the server (status, referral link, Mindbody,
 * referrer: issue 25); the Referred by column names each tree's referrer and filters to its
 * branches. 'Show branches under their trees' (`?view=nested`) nests each row under its referrer
 * when both are on the page (`nestRows`), indented and announced as "branch of {name}". Above the
 * cards, while any wait, Referrals to match (issue 33 item 4) and Rewards to honour (issue 33
 * item 2).
 * @param tools more cards for the side column, from other features (the routes pass the CSV
 *   Export/Import card)
 * @param intro a card above the others, from another feature (the routes pass the 'Getting
 *   started' checklist, which links to the 'Add New Tree' card by its id, `add-new-tree`)
 */
export function BranchesPage({ tools, intro }: { tools?: ReactNode; intro?: ReactNode } = {}) {
  const {
    query,
    filtered,
    nested,
    setNested,
    setPage,
    setPageSize,
    toggleSort,
    setSort,
    setFilter,
    clearFilters,
  } = useBranchesQuery();
  // What the role may do (docs/product.md#staff-accounts): a viewer adds nothing, only owners and
  // managers remove a tree or use the spreadsheet tools.
  const mayWrite = useRoleMay('write');
  const mayManage = useRoleMay('manage');
  const mayExport = useRoleMay('export');
  const members = useMembers(query);
  const [adding, setAdding] = useState(false);
  const [branchTarget, setBranchTarget] = useState<MemberRow | null>(null);
  const [removeTarget, setRemoveTarget] = useState<MemberRow | null>(null);
  const rows = members.data?.items ?? [];
  const referrerNames = members.data?.referrerNames ?? {};
  // Keep the open branch modal in step with fresh data (its branch list changes as you edit).
  const liveBranchTarget =
    branchTarget && (rows.find((row) => row.id === branchTarget.id) ?? branchTarget);

  const sortHeader = (key: MemberSortKey, label: string, numeric = false) => {
    const active = query.sort === key;
    return (
      <th
        scope="col"
        className={numeric ? 'g-num' : undefined}
        aria-sort={active ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}
      >
        <button type="button" className="g-sort" onClick={() => toggleSort(key)}>
          {label}
          {active ? (query.order === 'asc' ? ' ▲' : ' ▼') : ''}
        </button>
      </th>
    );
  };

  const body = (
    <ListFrame
      query={members}
      loadingLabel="Loading your trees…"
      emptyMessage={
        filtered ? (
          <>
            No trees match these filters.{' '}
            <button type="button" className="dash-link-button" onClick={clearFilters}>
              Show every tree
            </button>
          </>
        ) : query.search ? (
          `No members match “${query.search}”.`
        ) : (
          MESSAGES.branchesEmpty
        )
      }
      noun="trees"
      onPageChange={setPage}
    >
      {(page) => (
        <table
          className="g-table g-table--stack dash-trees"
          aria-busy={members.isFetching || undefined}
        >
          <caption className="g-visually-hidden">Your trees and their branches</caption>
          <thead>
            <tr>
              {sortHeader('memberName', 'Member')}
              {sortHeader('branches', 'Branches', true)}
              {sortHeader('newPriceCents', 'Membership', true)}
              {sortHeader('status', 'Status')}
              <th scope="col">Referred by</th>
              <th scope="col" className="g-num">
                Discount
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(nested
              ? nestRows(page.items)
              : page.items.map((row) => ({ row, level: 0, parent: undefined }))
            ).map(({ row, level, parent }) => (
              <tr
                key={row.id}
                data-testid="tree-row"
                data-level={nested ? level : undefined}
                className={level > 0 ? 'dash-trees__branch' : undefined}
                style={
                  level > 0 ? ({ '--dash-level': Math.min(level, 4) } as CSSProperties) : undefined
                }
              >
                <td>
                  <div className="dash-member">
                    {parent && (
                      <>
                        <span className="dash-trees__nest" aria-hidden="true">
                          ↳
                        </span>
                        <span className="g-visually-hidden">Branch of {parent.memberName}: </span>
                      </>
                    )}
                    <MemberLink memberId={row.id} name={row.memberName} />
                  </div>
                  <div className="dash-member__email">{row.memberEmail || NO_EMAIL_TEXT}</div>
                  <MindbodyClientState row={row} />
                </td>
                <td className="g-num" data-label="Branches">
                  {row.branches}
                </td>
                <td className="g-num" data-label="Membership">
                  <MembershipPrice row={row} />
                </td>
                <td data-label="Status">
                  <MemberStatusBadge status={row.status} managedBy={row.managedByIntegration} />
                </td>
                <td data-label="Referred by">
                  {row.referringMemberId ? (
                    <button
                      type="button"
                      className="dash-link-button"
                      title="Show only this member’s branches"
                      onClick={() => setFilter('referredBy', row.referringMemberId ?? '')}
                    >
                      {referrerNames[row.referringMemberId] ?? 'a member'}
                    </button>
                  ) : (
                    <span className="g-muted">—</span>
                  )}
                </td>
                <td className="g-num" data-label="Discount">
                  <MemberMoney cents={row.discountCents} currency={row.currency} />
                </td>
                <td>
                  {row.managedByIntegration ? (
                    <span className="g-badge g-badge--muted">
                      {MANAGED_BY_TEXT[row.managedByIntegration]}
                    </span>
                  ) : (
                    <div className="dash-actions">
                      {mayWrite && (
                        <Button size="sm" variant="secondary" onClick={() => setBranchTarget(row)}>
                          Add Branch
                        </Button>
                      )}
                      {mayManage && (
                        <Button size="sm" variant="danger" onClick={() => setRemoveTarget(row)}>
                          Remove Tree
                        </Button>
                      )}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListFrame>
  );

  return (
    <>
      <PageHeader title="Branches" description={MESSAGES.branchesIntro} />
      <div className="dash-grid">
        {intro}
        <ReferralsToMatchCard />
        <RewardsToHonour />
        <div className="dash-side">
          {mayWrite && (
            <Card className="dash-add" id="add-new-tree">
              <div>
                <h2>Add New Tree</h2>
                <p className="g-muted">Add a member and start growing their branches.</p>
              </div>
              <button
                type="button"
                className="dash-add__plus"
                aria-label="Add New Tree"
                onClick={() => setAdding(true)}
              >
                +
              </button>
            </Card>
          )}
          {mayExport && tools}
        </div>
        <Card aria-label="Trees">
          <BranchesToolbar
            query={query}
            referrerName={query.referredBy ? referrerNames[query.referredBy] : undefined}
            onFilter={setFilter}
            onSort={setSort}
            onPageSize={setPageSize}
          />
          <label className="dash-nest-toggle">
            <input
              type="checkbox"
              checked={nested}
              onChange={(event) => setNested(event.target.checked)}
            />{' '}
            Show branches under their trees
          </label>
          {body}
        </Card>
      </div>
      <AddTreeModal open={adding} onClose={() => setAdding(false)} />
      <AddBranchModal tree={liveBranchTarget} onClose={() => setBranchTarget(null)} />
      <RemoveTreeModal tree={removeTarget} onClose={() => setRemoveTarget(null)} />
    </>
  );
}
