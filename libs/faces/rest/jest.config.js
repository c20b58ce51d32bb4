module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'rest',
  rootDir: __dirname,
};
