import type { UiNode } from '@apex/port';
import { WebDriverMalformedReply } from '@apex/webdriver-http';
import { normalizeXmlSource } from '@apex/ios-source';
import type { WdaContext } from '../wda-context';

/** The current screen's element tree, from the XML source. */
export async function uiTree(ctx: WdaContext, signal: AbortSignal): Promise<UiNode> {
  const reply = await ctx.client.send({ method: 'GET', path: '/source?format=xml', idempotent: true, signal });
  if (typeof reply.value !== 'string') throw new WebDriverMalformedReply(200, 'GET /source', 'the value is not an XML string');
  return normalizeXmlSource(reply.value, ctx.deviceId);
}
