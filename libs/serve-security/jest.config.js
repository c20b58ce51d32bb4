module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'serve-security',
  rootDir: __dirname,
};
