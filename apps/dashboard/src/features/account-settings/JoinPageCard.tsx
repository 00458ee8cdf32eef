import { useState } from 'react';
import { BUSINESS_JOIN_TEXTS } from '@grove/contracts';
import { Alert, Button, Card, Spinner } from '@grove/web-ui';
import { joinPageQrUrl, useJoinPageLink } from './api/join-page';
import '../../components/referral-link/referral-link.css';

/**
 * 'Your join page' on Account Settings → Emails & sharing (issue 33 item 4,
 * docs/product.md#business-join): the business's link without a member, `/join/<code>`, for
 * friends who came without a referral link (a poster at the desk, the website). The page asks
 * "Who referred you?"; the answer waits in Referrals to match once the owner approves the friend.
 * Copy ('Copied!' for 3 s) and the QR code (SVG), as a member's link has.
 */
export function JoinPageCard() {
  const link = useJoinPageLink();
  const [copied, setCopied] = useState(false);
  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 3_000);
  };
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
          </div>
        </div>
      )}
    </Card>
  );
}
