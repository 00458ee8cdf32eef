// The Mindbody sandbox as a module: start one in-process with `startMindbodySandbox` (the API's
// integration tests and benchmarks do), or run `main.ts` as a service.
export {
  startMindbodySandbox,
  type RunningSandbox,
  type SandboxControl,
  type SandboxSiteControl,
  type StartSandboxOptions,
} from './app/start-sandbox';
export {
  DEFAULT_SANDBOX_OPTIONS,
  MindbodySandbox,
  type ContractViolation,
  type SandboxOptions,
  type SandboxSiteOptions,
} from './app/sandbox-server';
export {
  MINDBODY_CONTRACT,
  MindbodyContract,
  type ContractOperation,
} from './app/contract-validator';
export type { FaultRule } from './app/fault-switches';
export type {
  AutopayWrite,
  NewSandboxClient,
  NewSandboxPayment,
  NewSandboxVisit,
  SandboxClientChanges,
  StoreRefusal,
} from './app/sandbox-store';
export type { DeliveryRecord } from './app/webhook-dispatcher';
export { SANDBOX_AUTOPAY_AMOUNTS, SANDBOX_REFERRAL_TYPES, seedSite } from './app/seed';
