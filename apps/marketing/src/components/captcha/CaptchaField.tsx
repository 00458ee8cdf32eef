import { apiUrl } from '@grove/api-contract';
import { useEffect, useRef, useState } from 'react';
import type {} from 'altcha/types/react';
import type { CaptchaConfig } from '@grove/contracts';
import { MESSAGES } from '@grove/contracts';
import { Alert, Spinner } from '@grove/web-ui';

/** Props of {@link CaptchaField}. */
export interface CaptchaFieldProps {
  config: CaptchaConfig;
  /** Called with the solved payload / token, or null when it is cleared, expires or fails. */
  onChange: (token: string | null) => void;
  /** Id of the element that describes the captcha (its error), for `aria-describedby`. */
  describedBy?: string;
}

/**
 * The captcha widget of the public forms (contact: docs/product.md#contact-page, docs/product.md#validation-contact "captcha required"; the landing
 * page's Learn More). By default the self-hosted altcha proof of work (`altcha-widget`, loaded
 * lazily so only the pages with a form download it; challenge from
 * `config.challengeUrl`, no third-party host); reCAPTCHA v2 or Cloudflare Turnstile when the API
 * is configured with their keys (the provider's script, rendered explicitly). To reset it, give it
 * a new React `key`.
 */
export function CaptchaField({ config, onChange, describedBy }: CaptchaFieldProps) {
  return (
    <div className="mk-captcha" role="group" aria-label="Captcha" aria-describedby={describedBy}>
      {config.provider === 'altcha' ? (
        <AltchaCaptcha
          challengeUrl={config.challengeUrl ?? apiUrl('/captcha/challenge')}
          onChange={onChange}
        />
      ) : (
        <ExplicitCaptcha
          provider={config.provider}
          siteKey={config.siteKey ?? ''}
          onChange={onChange}
        />
      )}
    </div>
  );
}

/** What the altcha widget reports with its `statechange` event. */
interface AltchaStateDetail {
  state: string;
  payload?: string | null;
}

function AltchaCaptcha({
  challengeUrl,
  onChange,
}: {
  challengeUrl: string;
  onChange: (token: string | null) => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let live = true;
    import('./load-altcha')
      .then(({ loadAltcha }) => loadAltcha())
      .then(
        () => live && setStatus('ready'),
        () => live && setStatus('failed'),
      );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const widget = ref.current;
    if (status !== 'ready' || !widget) return;
    const report = (event: Event) => {
      const { state, payload } = (event as CustomEvent<AltchaStateDetail>).detail ?? { state: '' };
      onChange(state === 'verified' && payload ? payload : null);
    };
    widget.addEventListener('statechange', report);
    return () => widget.removeEventListener('statechange', report);
  }, [status, onChange]);

  if (status === 'loading') return <Spinner label="Loading the captcha…" />;
  if (status === 'failed') return <Alert>{MESSAGES.captchaUnavailable}</Alert>;
  return <altcha-widget ref={ref} challenge={challengeUrl} name="captcha" />;
}

/** The explicit-render API that reCAPTCHA v2 (`grecaptcha`) and Turnstile (`turnstile`) share. */
interface ExplicitCaptchaApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): string | number;
  reset(widgetId?: string | number): void;
}

type ExplicitProvider = Exclude<CaptchaConfig['provider'], 'altcha'>;

const providers: Record<ExplicitProvider, { script: string; global: string }> = {
  recaptcha: { script: 'https://www.google.com/recaptcha/api.js', global: 'grecaptcha' },
  turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    global: 'turnstile',
  },
};

const loading = new Map<ExplicitProvider, Promise<ExplicitCaptchaApi>>();

/** Loads a provider's script once (explicit rendering) and resolves with its global API. */
function loadProvider(provider: ExplicitProvider): Promise<ExplicitCaptchaApi> {
  const known = loading.get(provider);
  if (known) return known;
  const { script, global } = providers[provider];
  const scope = window as unknown as Record<string, unknown>;
  const promise = new Promise<ExplicitCaptchaApi>((resolve, reject) => {
    const callback = `groveCaptchaLoaded_${provider}`;
    scope[callback] = () => resolve(scope[global] as ExplicitCaptchaApi);
    const tag = document.createElement('script');
    tag.src = `${script}?onload=${callback}&render=explicit`;
    tag.async = true;
    tag.defer = true;
    tag.onerror = () => {
      loading.delete(provider);
      tag.remove();
      reject(new Error(`${provider} did not load`));
    };
    document.head.appendChild(tag);
  });
  loading.set(provider, promise);
  return promise;
}

function ExplicitCaptcha({
  provider,
  siteKey,
  onChange,
}: {
  provider: ExplicitProvider;
  siteKey: string;
  onChange: (token: string | null) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadProvider(provider).then(
      (api) => {
        if (!live || !ref.current) return;
        // A fresh container per mount: both providers refuse to render twice into one element.
        const container = document.createElement('div');
        ref.current.replaceChildren(container);
        api.render(container, {
          sitekey: siteKey,
          callback: (token) => onChange(token),
          'expired-callback': () => onChange(null),
          'error-callback': () => onChange(null),
        });
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [provider, siteKey, onChange]);

  if (failed) return <Alert>{MESSAGES.captchaUnavailable}</Alert>;
  return <div ref={ref} className="mk-captcha__explicit" />;
}
