module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'driver-wda',
  rootDir: __dirname,
};
