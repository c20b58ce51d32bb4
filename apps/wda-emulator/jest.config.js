module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'wda-emulator',
  rootDir: __dirname,
};
