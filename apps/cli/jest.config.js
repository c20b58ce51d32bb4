module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'cli',
  rootDir: __dirname,
  // These tests spawn the real `apex` process; on a loaded 2-core machine a start can take seconds.
  testTimeout: 60_000,
};
