module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'tasks',
  rootDir: __dirname,
};
