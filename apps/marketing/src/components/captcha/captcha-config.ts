import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@grove/web-data-access';

export const captchaConfigKey = ['captcha', 'config'] as const;

/**
 * Which captcha the contact form shows (`GET /api/captcha`, public): altcha (self-hosted proof
 * of work, with the challenge URL) unless reCAPTCHA or Turnstile keys are configured.
 */
export function useCaptchaConfig() {
  return useQuery({
    queryKey: captchaConfigKey,
    queryFn: ({ signal }) => unwrap(api.GET('/captcha', { signal })),
    staleTime: Infinity,
  });
}
