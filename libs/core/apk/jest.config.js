module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'apk',
  rootDir: __dirname,
};
