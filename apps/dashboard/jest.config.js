module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'dashboard',
  rootDir: __dirname,
};
