import { useState } from 'react';
import { Button } from '@grove/web-ui';

/**
 * The member's referral link with Copy, Share (the Web Share API where the browser has it; else
 * SMS and email links) and its QR code (SVG drawn by the API, shown from the page's own reply:
 * no request of its own, so it paints with the page).
 */
export function ShareLink({
  url,
  businessName,
  qrSvg,
}: {
  url: string;
  businessName: string;
  qrSvg: string | null;
}) {
  const [copied, setCopied] = useState(false);
  const text = `Join me at ${businessName}: ${url}`;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 3000);
    } catch {
      setCopied(false);
    }
  };
  const share = () => {
    // A dismissed share sheet rejects: nothing to tell the member.
    navigator
      .share({ title: businessName, text: `Join me at ${businessName}`, url })
      .catch(() => undefined);
  };

  return (
    <div className="member-share">
      <p className="member-share__url" data-testid="referral-url">
        {url}
      </p>
      <div className="member-share__actions">
        <Button onClick={() => void copy()} aria-live="polite">
          {copied ? 'Copied!' : 'Copy link'}
        </Button>
        {canShare ? (
          <Button variant="secondary" onClick={share}>
            Share
          </Button>
        ) : (
          <>
            <a className="g-btn g-btn--secondary" href={`sms:?&body=${encodeURIComponent(text)}`}>
              Text it
            </a>
            <a
              className="g-btn g-btn--secondary"
              href={`mailto:?subject=${encodeURIComponent(`Join me at ${businessName}`)}&body=${encodeURIComponent(text)}`}
            >
              Email it
            </a>
          </>
        )}
      </div>
      <img
        className="member-share__qr"
        src={
          qrSvg
            ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`
            : '/api/member/qr.svg'
        }
        alt="QR code of your referral link"
        width={180}
        height={180}
      />
    </div>
  );
}
