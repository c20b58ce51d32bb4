module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'ios-host',
  rootDir: __dirname,
};
