module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'mcp-server',
  rootDir: __dirname,
};
