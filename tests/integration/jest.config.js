/** Whole-stack tests over real HTTP: virtual iPhones, real drivers, real transports. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'integration',
  rootDir: __dirname,
  testTimeout: 60_000,
};
