import { invalidRequest } from './stripe-error';
import type { StripeList } from './stripe-objects';

/** Paging parameters of a list operation (https://docs.stripe.com/api/pagination). */
export interface PageParams {
  /** 1–100, default 10. */
  limit?: number;
  /** An object id: the page after it. */
  starting_after?: string;
  /** An object id: the page before it. */
  ending_before?: string;
}

/**
 * One page of `items` (newest first, as Stripe lists) in Stripe's list shape
 * `{ object: 'list', data, has_more, url }`. @throws StripeRequestError 400 for both cursors, or
 * a cursor that is not in the list
 */
export function listPage<T extends { id: string }>(
  items: T[],
  page: PageParams,
  url: string,
): StripeList<T> {
  const limit = page.limit ?? 10;
  if (page.starting_after && page.ending_before)
    throw invalidRequest(
      'You may only specify one of these parameters: ending_before, starting_after.',
    );
  const cursor = page.starting_after ?? page.ending_before;
  const at = cursor === undefined ? -1 : items.findIndex((item) => item.id === cursor);
  if (cursor !== undefined && at < 0)
    throw invalidRequest(
      `No such object: '${cursor}'`,
      page.starting_after ? 'starting_after' : 'ending_before',
      'resource_missing',
    );
  if (page.ending_before) {
    const start = Math.max(0, at - limit);
    return { object: 'list', data: items.slice(start, at), has_more: start > 0, url };
  }
  const start = at + 1;
  return {
    object: 'list',
    data: items.slice(start, start + limit),
    has_more: start + limit < items.length,
    url,
  };
}
