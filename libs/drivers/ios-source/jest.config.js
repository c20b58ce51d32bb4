module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'ios-source',
  rootDir: __dirname,
};
