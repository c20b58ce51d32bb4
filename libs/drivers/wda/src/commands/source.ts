import type { UiNode } from '@apex/port';
import { WebDriverMalformedReply } from '@apex/webdriver-http';
import { normalizeXmlSource } from '@apex/ios-source';
import type { WdaContext } from '../wda-context';

/**
 * Attributes of the XML source the neutral tree never reads (the element type is also the tag): left out by
 * WebDriverAgent, a third less to send and to parse on every read of the screen.
 */
const UNREAD_ATTRIBUTES = ['type', 'name', 'accessible', 'index'] as const;
const SOURCE_PATH = `/source?format=xml&excluded_attributes=${UNREAD_ATTRIBUTES.join(',')}`;

/** The current screen's element tree, from the XML source. */
export async function uiTree(ctx: WdaContext, signal: AbortSignal): Promise<UiNode> {
  const reply = await ctx.client.send({ method: 'GET', path: SOURCE_PATH, idempotent: true, signal });
  if (typeof reply.value !== 'string') throw new WebDriverMalformedReply(200, 'GET /source', 'the value is not an XML string');
  const xml = reply.value;
  return ctx.sources.treeOf(xml, 1, () => normalizeXmlSource(xml, ctx.deviceId));
}
