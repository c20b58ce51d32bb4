module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'driver-adb',
  rootDir: __dirname,
};
