module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'android-source',
  rootDir: __dirname,
};
