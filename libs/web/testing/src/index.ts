export * from './lib/fake-api';
export * from './lib/render-with-providers';
export * from './lib/fetch-fake';
