module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'zip',
  rootDir: __dirname,
};
