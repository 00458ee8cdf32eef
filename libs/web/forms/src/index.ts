export * from './lib/field-rules';
export * from './lib/use-contract-form';
