export * from './testing/fake-model-server';
export * from './testing/scripted-devices';
export * from './testing/goal-suite';
export * from './testing/held-out-goals';
export * from './testing/held-out-goals-2';
