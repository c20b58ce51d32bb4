export { WdaDriver, createWdaDriver, type WdaDriverOptions } from './wda-driver';
export { normalizeXmlSource } from './source/normalize-xml';
