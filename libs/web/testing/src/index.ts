export * from './lib/fake-api';
export * from './lib/render-with-providers';
