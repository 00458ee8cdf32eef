import { useState } from 'react';
import { BUSINESS_JOIN_TEXTS } from '@grove/contracts';
import { useRoleMay } from '@grove/web-data-access';
import { Alert, Button, Card, Modal, Spinner } from '@grove/web-ui';
import { joinPageQrUrl, useJoinPageLink, useNewJoinPageLink } from './api/join-page';
import '../../components/referral-link/referral-link.css';

/**
 * 'Your join page' on Account Settings → Emails & sharing (issue 33 item 4,
 * docs/product.md#business-join): the business's link without a member, `/join/<code>`, for
 * friends who came without a referral link (a poster at the desk, the website). The page asks
 * "Who referred you?"; the answer waits in Referrals to match once the owner approves the friend.
 * Copy ('Copied!' for 3 s) and the QR code (SVG), as a member's link has. Owners and managers
 * (`manage`) also get 'New link', confirmed in a dialog saying the old link and its printed QR
 * codes stop working.
 */
export function JoinPageCard() {
  const link = useJoinPageLink();
  const mayReplace = useRoleMay('manage');
  const replace = useNewJoinPageLink();
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 3_000);
  };
  const close = () => {
    setConfirming(false);
    if (replace.isError) replace.reset();
  };
  const confirm = () => replace.mutate(undefined, { onSuccess: () => setConfirming(false) });
  return (
    <Card className="dash-account__card" aria-labelledby="join-page-title">
      <h2 className="dash-account__title" id="join-page-title">
        {BUSINESS_JOIN_TEXTS.ownerTitle}
      </h2>
      <p className="g-muted dash-account__lead">{BUSINESS_JOIN_TEXTS.ownerHint}</p>
      {link.isPending && <Spinner label="Loading your join page…" />}
      {link.isError && <Alert>{link.error.message}</Alert>}
      {link.data && (
        <div className="dash-link" data-testid="join-page-link">
          <a href={link.data.url} className="dash-link__url" target="_blank" rel="noreferrer">
            {link.data.url}
          </a>
          <div className="dash-actions">
            <Button size="sm" variant="secondary" onClick={() => copy(link.data.url)}>
              {copied ? 'Copied!' : 'Copy'}
            </Button>
            <a
              className="g-btn g-btn--ghost g-btn--sm"
              href={joinPageQrUrl()}
              download="grove-join-page.svg"
            >
              QR (SVG)
            </a>
            {mayReplace && (
              <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
                {BUSINESS_JOIN_TEXTS.newLink}
              </Button>
            )}
          </div>
        </div>
      )}
      {replace.isSuccess && !confirming && (
        <p className="g-muted" role="status">
          {BUSINESS_JOIN_TEXTS.newLinkDone}
        </p>
      )}
      <Modal open={confirming} title={BUSINESS_JOIN_TEXTS.newLinkTitle} onClose={close}>
        <p>{BUSINESS_JOIN_TEXTS.newLinkWarning}</p>
        {replace.isError && <Alert>{replace.error.message}</Alert>}
        <div className="dash-confirm">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={replace.isPending}>
            {replace.isPending ? 'Replacing…' : BUSINESS_JOIN_TEXTS.newLinkConfirm}
          </Button>
        </div>
      </Modal>
    </Card>
  );
}
