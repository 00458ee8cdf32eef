import { useState } from 'react';
import { ListFrame } from '../../components/list-frame/ListFrame';
import { MESSAGES, type ReferralLinkRow } from '@grove/contracts';
import {
  referralQrUrl,
  useReferralEmails,
  useReferralLinkActions,
  useReferralLinks,
} from './api/referral-links';
import { Alert, Button, Card, PageHeader } from '@grove/web-ui';

const PAGE_SIZE = 25;

/**
 * Referral Links (docs/product.md#referral-links): Name, Email, Referral Link. A member without a link shows SPEC's
 * 'Referral link does not exist for this member' and a button to create one; a link can be
 * copied, emailed to its member ("Your referral link", with a link to their member page; all
 * members at once with 'Email all links'), rotated (the old one stops working), removed, or
 * downloaded as a QR code poster.
 */
export function ReferralLinksPage() {
  const [page, setPage] = useState(1);
  const links = useReferralLinks({ page, pageSize: PAGE_SIZE });
  const actions = useReferralLinkActions();
  const [copied, setCopied] = useState<string | null>(null);
  const emails = useReferralEmails();
  const [emailed, setEmailed] = useState<string | null>(null);
  const failure =
    actions.create.error ??
    actions.rotate.error ??
    actions.revoke.error ??
    emails.one.error ??
    emails.all.error;

  const emailOne = (row: ReferralLinkRow) => {
    emails.all.reset();
    emails.one.mutate(row.memberId, {
      onSuccess: () => setEmailed(`Referral link emailed to ${row.memberName}.`),
      onError: () => setEmailed(null),
    });
  };
  const emailAll = () => {
    emails.one.reset();
    emails.all.mutate(undefined, {
      onSuccess: ({ queued, skipped }) =>
        setEmailed(
          `Referral links emailed to ${queued} ${queued === 1 ? 'member' : 'members'}` +
            (skipped > 0 ? ` (${skipped} already emailed in the last hour).` : '.'),
        ),
      onError: () => setEmailed(null),
    });
  };

  const copy = async (row: ReferralLinkRow) => {
    if (!row.link) return;
    await navigator.clipboard?.writeText(row.link.url);
    setCopied(row.memberId);
    setTimeout(() => setCopied((current) => (current === row.memberId ? null : current)), 3_000);
  };

  const body = (
    <ListFrame
      query={links}
      loadingLabel="Loading referral links…"
      emptyMessage={MESSAGES.branchesEmpty}
      noun="members"
      onPageChange={setPage}
    >
      {(page) => (
        <table className="g-table g-table--stack">
          <caption className="g-visually-hidden">Referral links of your members</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Referral Link</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((row) => (
              <tr key={row.memberId} data-testid="link-row">
                <td className="dash-member">{row.memberName}</td>
                <td data-label="Email">{row.memberEmail}</td>
                <td data-label="Referral Link">
                  {row.link ? (
                    <div className="dash-link">
                      <a
                        href={row.link.url}
                        className="dash-link__url"
                        target="_blank"
                        rel="noreferrer"
                      >
                        {row.link.url}
                      </a>
                      <div className="dash-actions">
                        <Button size="sm" variant="secondary" onClick={() => copy(row)}>
                          {copied === row.memberId ? 'Copied!' : 'Copy'}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`Email referral link to ${row.memberName}`}
                          busy={emails.one.isPending && emails.one.variables === row.memberId}
                          onClick={() => emailOne(row)}
                        >
                          Email
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          busy={
                            actions.rotate.isPending && actions.rotate.variables === row.memberId
                          }
                          onClick={() => actions.rotate.mutate(row.memberId)}
                        >
                          New link
                        </Button>
                        <a
                          className="g-btn g-btn--ghost g-btn--sm"
                          href={referralQrUrl(row.memberId, 'svg')}
                          download={`grove-referral-${row.link.code}.svg`}
                        >
                          QR (SVG)
                        </a>
                        <a
                          className="g-btn g-btn--ghost g-btn--sm"
                          href={referralQrUrl(row.memberId, 'png')}
                          download={`grove-referral-${row.link.code}.png`}
                        >
                          QR (PNG)
                        </a>
                        <Button
                          size="sm"
                          variant="danger"
                          aria-label={`Remove referral link of ${row.memberName}`}
                          busy={
                            actions.revoke.isPending && actions.revoke.variables === row.memberId
                          }
                          onClick={() => actions.revoke.mutate(row.memberId)}
                        >
                          Remove
                        </Button>
                      </div>
                    </div>
                  ) : (
                    <div className="dash-link">
                      <span className="g-muted">{MESSAGES.noReferralLink}</span>
                      <Button
                        size="sm"
                        aria-label={`Create referral link for ${row.memberName}`}
                        busy={actions.create.isPending && actions.create.variables === row.memberId}
                        onClick={() => actions.create.mutate(row.memberId)}
                      >
                        Create link
                      </Button>
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
      <PageHeader
        title="Referral Links"
        description="Each member's personal link to share with friends. Friends who join appear under Prospective Members."
        actions={
          <Button variant="secondary" busy={emails.all.isPending} onClick={emailAll}>
            Email all links
          </Button>
        }
      />
      {failure && <Alert>{failure.message}</Alert>}
      {emailed && !failure && <Alert tone="success">{emailed}</Alert>}
      <Card>{body}</Card>
    </>
  );
}
