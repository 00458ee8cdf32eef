import { useMutation, useQuery } from '@tanstack/react-query';
import type { CaptchaConfig, ContactRequest, MessageReply } from '@grove/contracts';
import { apiFetch } from './api-client';

export const captchaConfigKey = ['captcha', 'config'] as const;

/**
 * Which captcha the contact form shows (`GET /api/captcha`, public): altcha (self-hosted proof
 * of work, with the challenge URL) unless reCAPTCHA or Turnstile keys are configured.
 */
export function useCaptchaConfig() {
  return useQuery({
    queryKey: captchaConfigKey,
    queryFn: ({ signal }) => apiFetch<CaptchaConfig>('/api/captcha', { signal }),
    staleTime: Infinity,
  });
}

/**
 * Sends the contact form (`POST /api/contact`, public). Resolves with the server's message
 * (MESSAGES.contactSuccess); rejects with an ApiError carrying the server's message and per-field
 * messages (400), MESSAGES.contactFailed for a missing, invalid or reused captcha, or 429 when
 * throttled.
 */
export function useSendContactMessage() {
  return useMutation({
    mutationFn: (body: ContactRequest) =>
      apiFetch<MessageReply>('/api/contact', { method: 'POST', body }),
  });
}
