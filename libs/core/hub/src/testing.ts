export * from './testing/fake-driver';
export * from './testing/driver-contract';
