import { ApexError } from '@apex/errors';
import { parseXml, type XmlElement } from './xml-document';

export type { XmlAttributes } from './xml-document';
/** An element of a page source. */
export type XmlNode = XmlElement;

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A source that cannot be read, as the one error both drivers give for it. */
export function unreadableSource(deviceId: string, cause: unknown): ApexError {
  return new ApexError('device_error', `Device ${deviceId} described its screen in a form that could not be read.`, {
    hint: 'Retry; the screen may have been changing.',
    cause,
  });
}

/** The page source's top-level elements (one reader for iOS and Android); an unparsable source is `device_error`. */
export function readXmlSource(xml: string, deviceId: string): XmlNode[] {
  try {
    return parseXml(xml);
  } catch (error) {
    throw unreadableSource(deviceId, error);
  }
}
