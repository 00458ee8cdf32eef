import { useState } from 'react';
import type { ReferralEmailRun } from '@grove/contracts';
import { ListFrame } from '../../components/list-frame/ListFrame';
import { MESSAGES, NO_EMAIL_TEXT, type ReferralLinkRow } from '@grove/contracts';
import { Alert, Button, Card, Modal, PageHeader } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { MemberLink } from '../../components/member-link/MemberLink';
import { ReferralLinkControls } from '../../components/referral-link/ReferralLinkControls';
import { useReferralLinkActions } from '../../components/referral-link/referral-link-api';
import {
  useEmailAllLinks,
  useEmailAllPreview,
  useReferralEmail,
  useReferralLinks,
} from './api/referral-links';
import { LinksForEveryone } from './LinksForEveryone';
import { RunProgress } from './RunProgress';
import './referral-links.css';

const PAGE_SIZE = 25;

/**
 * Referral Links (docs/product.md#referral-links): Name, Email, Referral Link. A member without a link shows SPEC's
 * 'Referral link does not exist for this member' and a button to create one; a link can be
 * copied, rotated (the old one stops working), removed, or downloaded as a QR code poster. A
 * member's name opens their profile; above the table, links for everyone (one click for every
 * member without a link, and automatic links for new members). 'Email link' sends a member "Your
 * referral link" (their link and a link to their member page), 'Email all links' every member
 * with a link after the owner confirms how many members it will email, seeing one example email
 * as a real member would get it (issue 25; one request; the
 * run goes on in the background with a progress bar, and a second click while it runs starts
 * nothing); at most once an hour per member.
 */
export function ReferralLinksPage() {
  // A viewer emails nobody (docs/product.md#staff-accounts).
  const mayWrite = useRoleMay('write');
  const [page, setPage] = useState(1);
  const links = useReferralLinks({ page, pageSize: PAGE_SIZE });
  const actions = useReferralLinkActions();
  const emailOneMutation = useReferralEmail();
  const { run: emailRun, start: emailAllMutation } = useEmailAllLinks();
  const preview = useEmailAllPreview();
  const [confirmingAll, setConfirmingAll] = useState(false);
  const emailState = emailRun.data;
  const emailing = emailState?.status === 'running';
  const [emailed, setEmailed] = useState<string | null>(null);
  // The result of 'Email all links' shows once a run this page started has ended.
  const [emailAllClicked, setEmailAllClicked] = useState(false);
  const failure =
    actions.create.error ??
    actions.rotate.error ??
    actions.revoke.error ??
    emailOneMutation.error ??
    emailAllMutation.error ??
    preview.error;

  const emailOne = (row: ReferralLinkRow) => {
    setEmailAllClicked(false);
    emailAllMutation.reset();
    emailOneMutation.mutate(row.memberId, {
      onSuccess: () => setEmailed(`Referral link emailed to ${row.memberName}.`),
      onError: () => setEmailed(null),
    });
  };
  /** 'Email all links': counts who would get it, then asks. */
  const askEmailAll = () => {
    emailOneMutation.reset();
    emailAllMutation.reset();
    setEmailed(null);
    setEmailAllClicked(false);
    preview.mutate(undefined, { onSuccess: () => setConfirmingAll(true) });
  };
  const closeEmailAll = () => {
    setConfirmingAll(false);
    preview.reset();
  };
  const emailAll = () => {
    closeEmailAll();
    setEmailAllClicked(true);
    emailAllMutation.mutate();
  };
  const due = preview.data?.members ?? 0;
  const skipped = preview.data?.alreadyEmailed ?? 0;
  const notice = emailing
    ? null
    : emailAllClicked && emailState?.status === 'done'
      ? emailAllResult(emailState)
      : emailAllClicked && emailState?.status === 'failed'
        ? 'Emailing the links stopped early; click again to email the rest.'
        : emailed;

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
                <td className="dash-member">
                  <MemberLink memberId={row.memberId} name={row.memberName} />
                </td>
                <td data-label="Email">{row.memberEmail || NO_EMAIL_TEXT}</td>
                <td data-label="Referral Link">
                  <ReferralLinkControls
                    memberId={row.memberId}
                    memberName={row.memberName}
                    link={row.link}
                    actions={actions}
                  />
                  {row.link && mayWrite && (
                    <Button
                      size="sm"
                      variant="secondary"
                      className="dash-email-link"
                      aria-label={`Email referral link to ${row.memberName}`}
                      busy={
                        emailOneMutation.isPending && emailOneMutation.variables === row.memberId
                      }
                      onClick={() => emailOne(row)}
                    >
                      Email link
                    </Button>
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
          mayWrite && (
            <Button
              variant="secondary"
              busy={preview.isPending || emailAllMutation.isPending || emailing}
              disabled={emailing}
              onClick={askEmailAll}
            >
              Email all links
            </Button>
          )
        }
      />
      <Modal
        open={confirmingAll && preview.data !== undefined}
        title={
          due > 0
            ? `Email ${due.toLocaleString()} ${due === 1 ? 'member' : 'members'} their referral link?`
            : 'No member to email now'
        }
        onClose={closeEmailAll}
      >
        <p>
          {due > 0
            ? `Each gets “Your referral link” from your business: their link, their price now, the discount per friend and a link to their member page.`
            : 'No member with a referral link is waiting for it.'}
          {skipped > 0
            ? ` ${skipped.toLocaleString()} ${skipped === 1 ? 'member was' : 'members were'} emailed it in the last hour and ${skipped === 1 ? 'is' : 'are'} skipped.`
            : ''}
        </p>
        {due > 0 && preview.data?.example && (
          <figure className="dash-email-example" data-testid="email-example">
            <figcaption>
              <span className="g-muted">
                Example: the email {preview.data.example.memberName} will get
              </span>
              <br />
              <strong>Subject: {preview.data.example.subject}</strong>
            </figcaption>
            <iframe
              title={`Example email to ${preview.data.example.memberName}`}
              sandbox=""
              srcDoc={preview.data.example.html}
              className="dash-email-example__frame"
            />
          </figure>
        )}
        <div className="dash-confirm">
          <Button variant="secondary" onClick={closeEmailAll}>
            {due > 0 ? 'Cancel' : 'OK'}
          </Button>
          {due > 0 && (
            <Button onClick={emailAll}>
              Email {due.toLocaleString()} {due === 1 ? 'member' : 'members'}
            </Button>
          )}
        </div>
      </Modal>
      {emailing && (
        <p className="g-muted" aria-live="polite">
          Emailing links… {emailState.processed.toLocaleString()} of{' '}
          {emailState.total.toLocaleString()}
        </p>
      )}
      <RunProgress run={emailState} label="Emailing referral links" />
      <LinksForEveryone />
      {failure && <Alert>{failure.message}</Alert>}
      {notice && !failure && <Alert tone="success">{notice}</Alert>}
      <Card>{body}</Card>
    </>
  );
}

/** 'Referral links emailed to N members (M already emailed in the last hour).' (docs/product.md#referral-links) */
function emailAllResult({ queued, skipped }: ReferralEmailRun): string {
  return (
    `Referral links emailed to ${queued} ${queued === 1 ? 'member' : 'members'}` +
    (skipped > 0 ? ` (${skipped} already emailed in the last hour).` : '.')
  );
}
