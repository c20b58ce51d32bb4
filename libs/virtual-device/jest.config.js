module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'virtual-device',
  rootDir: __dirname,
};
