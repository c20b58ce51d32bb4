module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'hub',
  rootDir: __dirname,
};
