import { server } from './fake-api';

// Every web spec talks to the contract's fake API (docs/architecture.md#the-api-contract); a
// request that no handler answers fails the spec.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
