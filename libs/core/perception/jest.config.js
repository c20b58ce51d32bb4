module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'perception',
  rootDir: __dirname,
};
