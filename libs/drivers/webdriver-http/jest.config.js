module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'webdriver-http',
  rootDir: __dirname,
};
