module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'driver-appium',
  rootDir: __dirname,
};
