export * from './testing/fake-driver';
