module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'architecture',
  rootDir: __dirname,
};
