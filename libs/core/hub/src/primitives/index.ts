export * from './devices';
export * from './screenshot';
export * from './gestures';
export * from './text';
export * from './apps';
export * from './ui-tree';
