module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'capability',
  rootDir: __dirname,
};
