/**
 * How much a model has to read: describe_screen and get_ui_tree as an MCP client receives them, against the
 * raw page source of the same screen. Tokens are estimated as chars / 4.
 * Target (issue 5/6): describe_screen on Settings < 1,500 tokens and ≥ 10× smaller than the raw source.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HOME_URL, MAPS_BUNDLE_ID, NOTES_BUNDLE_ID, SAFARI_BUNDLE_ID, SETTINGS_BUNDLE_ID, type Phone } from '@apex/virtual-device';
import { inMemoryMcp } from './support/mcp-clients';
import { rawWda } from './support/raw-wda';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round } from './support/stats';

const SCREENS: [string, (phone: Phone) => void][] = [
  ['Settings', (p) => p.launchApp(SETTINGS_BUNDLE_ID)],
  ['Home screen', (p) => p.pressButton('home')],
  [
    'Notes + keyboard',
    (p) => {
      p.launchApp(NOTES_BUNDLE_ID);
      p.tap(200, 200);
      p.typeText('Hello');
    },
  ],
  ['Safari', (p) => p.launchApp(SAFARI_BUNDLE_ID)],
  ['Maps + alert', (p) => p.launchApp(MAPS_BUNDLE_ID)],
];

const tokens = (chars: number) => Math.ceil(chars / 4);
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
/** What an MCP client receives for a call: the content and the structured output. */
const wireOf = (result: CallToolResult) => JSON.stringify({ content: result.content, structuredContent: result.structuredContent });

export const sizesSection: Section = {
  name: 'sizes',
  description: 'describe_screen and get_ui_tree output vs the raw page source (chars, estimated tokens)',
  async run(): Promise<SectionResult> {
    const stack = await startStack(1);
    const [iphone] = stack.phones;
    const [id] = stack.ids;
    if (!iphone || !id) throw new Error('no phone');
    const raw = rawWda(iphone.url);
    const mcp = await inMemoryMcp(stack.ctx);
    const result: SectionResult = {
      title: 'Output sizes in characters (≈ tokens = chars / 4); "MCP result" = content text + structuredContent',
      columns: [
        'screen',
        'raw source chars',
        'raw source tokens',
        'describe text chars',
        'text smaller ×',
        'describe MCP result chars',
        'describe tokens',
        'describe smaller ×',
        'ui_tree MCP result chars',
        'ui_tree tokens',
        'ui_tree smaller ×',
      ],
      rows: [],
      targets: [],
      notes: [`Safari shows ${HOME_URL}; OCR text is included in describe_screen (its default).`],
    };
    try {
      for (const [name, show] of SCREENS) {
        show(iphone.phone);
        const source = (JSON.parse(await raw.get('/source?format=xml')) as { value: string }).value;
        const describe = await mcp.call('describe_screen', { device: id });
        const tree = await mcp.call('get_ui_tree', { device: id });
        const describeChars = wireOf(describe).length;
        const treeChars = wireOf(tree).length;
        result.rows.push({
          screen: name,
          'raw source chars': source.length,
          'raw source tokens': tokens(source.length),
          'describe text chars': textOf(describe).length,
          'text smaller ×': round(source.length / textOf(describe).length, 1),
          'describe MCP result chars': describeChars,
          'describe tokens': tokens(describeChars),
          'describe smaller ×': round(source.length / describeChars, 1),
          'ui_tree MCP result chars': treeChars,
          'ui_tree tokens': tokens(treeChars),
          'ui_tree smaller ×': round(source.length / treeChars, 1),
        });
        if (name === 'Settings') {
          result.targets.push(target('describe_screen Settings, MCP result tokens', '< 1,500', tokens(describeChars), 'tokens', tokens(describeChars) < 1500));
          const factor = source.length / describeChars;
          const textFactor = source.length / textOf(describe).length;
          result.targets.push(target('describe_screen Settings, whole MCP result (text + structuredContent) smaller than the raw source', '≥ 10×', factor, '×', factor >= 10));
          result.targets.push(target('describe_screen Settings, its text alone smaller than the raw source', '≥ 10×', textFactor, '×', textFactor >= 10));
        }
      }
      return result;
    } finally {
      await mcp.close();
      raw.close();
      await stack.close();
    }
  },
};
