import { useState } from 'react';
import { MESSAGES, type ReferralLink } from '@grove/contracts';
import { Button } from '@grove/web-ui';
import { useRoleMay } from '@grove/web-data-access';
import { referralQrUrl, type ReferralLinkActions } from './referral-link-api';
import './referral-link.css';

/** Props of {@link ReferralLinkControls}. */
export interface ReferralLinkControlsProps {
  memberId: string;
  memberName: string;
  /** The member's live link, or null. */
  link: ReferralLink | null;
  /** The screen's link actions (one set per screen, so its error line covers every row). */
  actions: ReferralLinkActions;
}

/**
 * A member's referral link with its actions (docs/product.md#referral-links): the URL, Copy
 * ('Copied!' for 3 s), New link (the old one stops working), QR code downloads (SVG, PNG) and
 * Remove; without a link SPEC's 'Referral link does not exist for this member' and Create link.
 * Shared by the Referral Links table and the member profile.
 */
export function ReferralLinkControls({
  memberId,
  memberName,
  link,
  actions,
}: ReferralLinkControlsProps) {
  const [copied, setCopied] = useState(false);
  // A viewer creates, renews and removes no link (docs/product.md#staff-accounts).
  const mayWrite = useRoleMay('write');
  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 3_000);
  };
  const pending = (action: ReferralLinkActions[keyof ReferralLinkActions]) =>
    action.isPending && action.variables === memberId;

  if (!link) {
    return (
      <div className="dash-link">
        <span className="g-muted">{MESSAGES.noReferralLink}</span>
        {mayWrite && (
          <Button
            size="sm"
            aria-label={`Create referral link for ${memberName}`}
            busy={pending(actions.create)}
            onClick={() => actions.create.mutate(memberId)}
          >
            Create link
          </Button>
        )}
      </div>
    );
  }
  return (
    <div className="dash-link">
      <a href={link.url} className="dash-link__url" target="_blank" rel="noreferrer">
        {link.url}
      </a>
      <div className="dash-actions">
        <Button size="sm" variant="secondary" onClick={() => copy(link.url)}>
          {copied ? 'Copied!' : 'Copy'}
        </Button>
        {mayWrite && (
          <Button
            size="sm"
            variant="secondary"
            busy={pending(actions.rotate)}
            onClick={() => actions.rotate.mutate(memberId)}
          >
            New link
          </Button>
        )}
        <a
          className="g-btn g-btn--ghost g-btn--sm"
          href={referralQrUrl(memberId, 'svg')}
          download={`grove-referral-${link.code}.svg`}
        >
          QR (SVG)
        </a>
        <a
          className="g-btn g-btn--ghost g-btn--sm"
          href={referralQrUrl(memberId, 'png')}
          download={`grove-referral-${link.code}.png`}
        >
          QR (PNG)
        </a>
        {mayWrite && (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Remove referral link of ${memberName}`}
            busy={pending(actions.revoke)}
            onClick={() => actions.revoke.mutate(memberId)}
          >
            Remove
          </Button>
        )}
      </div>
    </div>
  );
}
