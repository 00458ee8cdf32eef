import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';

/** A query client for one spec: no retries, so an error reply shows at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

/**
 * Renders a screen as the shell would: inside a query client and a router at `route`.
 * @param options.route the URL the router starts at (default '/')
 * @param options.client the query client (default: a fresh {@link createTestQueryClient})
 * @returns Testing Library's result and the query client
 */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', client = createTestQueryClient() }: { route?: string; client?: QueryClient } = {},
): RenderResult & { client: QueryClient } {
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter
        initialEntries={[route]}
        future={{ v7_startTransition: true, v7_relativeSplatPath: true }}
      >
        {ui}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, client };
}
