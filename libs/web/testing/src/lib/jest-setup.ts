import { configure } from '@testing-library/react';
import { server } from './fake-api';

// Every web spec talks to the contract's fake API (docs/architecture.md#the-api-contract); a
// request that no handler answers fails the spec.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// `findBy…` and `waitFor` wait for a state, never for a time: on a loaded 2-core machine a lazy
// form or a query's answer can take longer than Testing Library's default 1 s to render.
configure({ asyncUtilTimeout: 10_000 });
