module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'mcp',
  rootDir: __dirname,
};
