export { WdaDriver, createWdaDriver, type WdaDriverOptions } from './wda-driver';
export { normalizeXmlSource } from '@apex/ios-source';
