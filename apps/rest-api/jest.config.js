module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'rest-api',
  rootDir: __dirname,
};
