export { WdaDriver, createWdaDriver, type WdaDriverOptions } from './wda-driver';
export { normalizeXmlSource, type IosDiagnosticsSource } from '@apex/ios-source';
