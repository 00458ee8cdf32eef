import { useState } from 'react';
import {
  MESSAGES,
  validateMindbodyCredentials,
  validateMindbodySite,
  type MindbodyCredentialsInput,
  type MindbodySiteActivation,
  type MindbodySiteInput,
} from '@grove/contracts';
import { useContractForm } from '@grove/web-forms';
import { useConnectMindbody, useSiteActivation } from './api/mindbody';
import { Alert, Button, TextField } from '@grove/web-ui';

/**
 * Stage 1 (docs/product.md#mindbody-setup, issue 22), as Mindbody asks a gym to connect: the site ID first; a site
 * that has not activated Grove's access shows its activation link and code ('Open this link while
 * signed in to Mindbody as the site owner, then come back') and 'Check again'; then the staff
 * username and password. A refused login shows docs/product.md#errors's 'Invalid credentials
 * provided', a site that has not activated Grove its own message; other failures the server's text.
 */
export function CredentialsForm() {
  const [site, setSite] = useState<MindbodySiteActivation | null>(null);
  if (!site) return <SiteStep onSite={setSite} />;
  if (!site.activated) return <ActivationStep site={site} onSite={setSite} />;
  return <LoginStep siteId={site.siteId} onChangeSite={() => setSite(null)} />;
}

/**
 * The site ID (contracts' `validateMindbodySite`, as `GET /api/mindbody/activation` checks it),
 * checked with Mindbody (activated or not).
 */
function SiteStep({ onSite }: { onSite: (site: MindbodySiteActivation) => void }) {
  const check = useSiteActivation();
  const {
    submit,
    field,
    formState: { isSubmitting },
  } = useContractForm<MindbodySiteInput>(validateMindbodySite, {
    defaultValues: { siteId: '' },
    trim: ['siteId'],
    onSubmit: async ({ siteId }) => onSite(await check.mutateAsync(siteId)),
    // Shown from the mutation's own error below.
    onError: () => undefined,
  });
  return (
    <form className="mb-form" onSubmit={submit} noValidate aria-describedby="mb-site-help">
      <p id="mb-site-help" className="g-muted mb-lead">
        Start with your Mindbody site. Grove checks that the site lets Grove read its clients and
        contracts, and shows you how to allow it if it does not yet.
      </p>
      {check.isError && <Alert>{check.error.message}</Alert>}
      <TextField
        label="Site ID"
        inputMode="numeric"
        hint="Your Mindbody site number, e.g. -99 for the sandbox"
        {...field('siteId')}
      />
      <Button type="submit" busy={isSubmitting} className="mb-submit">
        Continue
      </Button>
    </form>
  );
}

/** A site that has not activated Grove: its activation link and code, and 'Check again'. */
function ActivationStep({
  site,
  onSite,
}: {
  site: MindbodySiteActivation;
  onSite: (site: MindbodySiteActivation | null) => void;
}) {
  const check = useSiteActivation();
  const [stillWaiting, setStillWaiting] = useState(false);
  const again = async () => {
    try {
      const next = await check.mutateAsync(site.siteId);
      setStillWaiting(!next.activated);
      if (next.activated) onSite(next);
    } catch {
      // Shown from the mutation's own error below.
    }
  };
  return (
    <div className="mb-form" aria-labelledby="mb-activate-title">
      <h3 id="mb-activate-title" className="mb-activate__title">
        Give Grove access to site {site.siteId}
      </h3>
      <p className="g-muted mb-lead">
        Mindbody asks the site’s owner to activate Grove before Grove can read the site.{' '}
        {MESSAGES.mindbodyActivationHelp}.
      </p>
      {check.isError && <Alert>{check.error.message}</Alert>}
      {stillWaiting && !check.isError && (
        <Alert tone="info">Site {site.siteId} has not activated Grove yet.</Alert>
      )}
      <dl className="mb-activate">
        <dt>Activation link</dt>
        <dd>
          <a href={site.activationLink ?? undefined} target="_blank" rel="noopener noreferrer">
            Open the activation link
          </a>
        </dd>
        <dt>Activation code</dt>
        <dd>
          <code className="mb-activate__code">{site.activationCode}</code>
        </dd>
      </dl>
      <div className="mb-confirm mb-confirm--start">
        <Button onClick={again} busy={check.isPending}>
          Check again
        </Button>
        <Button variant="ghost" onClick={() => onSite(null)}>
          Use another site
        </Button>
      </div>
    </div>
  );
}

/**
 * The staff username and password of an activated site (contracts' `validateMindbodyCredentials`,
 * the API's rule: 'Invalid credentials provided' for a missing one).
 */
function LoginStep({ siteId, onChangeSite }: { siteId: string; onChangeSite: () => void }) {
  const connect = useConnectMindbody();
  const {
    submit,
    field,
    formState: { isSubmitting },
  } = useContractForm<MindbodyCredentialsInput>(validateMindbodyCredentials, {
    // The site ID is no field of this step: it rides along in the values the rule checks.
    defaultValues: { username: '', password: '', siteId },
    trim: ['username'],
    onSubmit: (values) => connect.mutateAsync(values),
    // Shown from the mutation's own error below.
    onError: () => undefined,
  });

  return (
    <form className="mb-form" onSubmit={submit} noValidate aria-describedby="mb-credentials-help">
      <p className="mb-site-chosen">
        Site {siteId}{' '}
        <Button variant="ghost" size="sm" onClick={onChangeSite}>
          Change
        </Button>
      </p>
      <p id="mb-credentials-help" className="g-muted mb-lead">
        Sign in with a Mindbody staff account that can see clients and contracts. Grove checks the
        login with Mindbody and keeps the password encrypted.
      </p>
      {connect.isError && <Alert>{connect.error.message}</Alert>}
      <TextField label="Username" autoComplete="username" {...field('username')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      <Button type="submit" busy={isSubmitting} className="mb-submit">
        Connect Mindbody
      </Button>
    </form>
  );
}
