import { callerSignal, deviceRefs, type DeviceHub } from '@apex/hub';
import { isInteractive, type Rect, type Role, type ScreenGeometry, type UiNode } from '@apex/port';
import { ApexError, invalidArgument } from '@apex/errors';
import { sharp } from './sharp';
import { describeScreen, regionsTheTreeTells } from './describe/describe-screen';
import { hubDeviceView, type DeviceView } from './device-view';
import { clipTo, overlapOfSmaller } from './geometry';
import { glyphForName, type GlyphName } from './icons/glyph-library';
import { decodeGray, type GrayImage } from './icons/gray-image';
import {
  DEFAULT_LIBRARY_THRESHOLD,
  DEFAULT_TEMPLATE_THRESHOLD,
  findGlyphInPixels,
  findIconsInTree,
  findTemplateInPixels,
  identifyGlyph,
} from './icons/icon-finders';
import { screenEdges, type ScreenEdges } from './icons/screen-edges';
import { checkTemplateSize } from './icons/template-limits';
import { LruCache } from './ocr/lru-cache';
import { OcrService, type OcrStats } from './ocr/ocr-service';
import type { OcrPage } from './ocr/ocr-types';
import { TesseractPool } from './ocr/tesseract-pool';
import { PixelPool } from './workers/pixel-pool';
import { ScreenImage } from './screen-image';
import { findTextInOcr, findTextInTree } from './text/text-finders';
import { descendantText, pruneUiTree } from './tree/prune';
import { visibleNodes } from './tree/visible';
import type {
  DescribeOptions,
  FindIconQuery,
  FindIconResult,
  FindTextQuery,
  FindTextResult,
  IconMatch,
  PerceptionOptions,
  ScreenDescriptionResult,
  UiTreeOptions,
  UiTreeResult,
} from './types';

/** Unlabeled icon buttons named from their pixels in one description, at most. */
const MAX_ICONS_NAMED = 24;
const ICON_BUTTON_ROLES: ReadonlySet<Role> = new Set<Role>(['button', 'icon', 'link']);
/** Edge maps kept for recent screenshots (find_icon called repeatedly on one screen). */
const EDGE_CACHE_SIZE = 4;

/**
 * Finding and describing what is on a device's screen: text (UI tree, then OCR), icons (tree labels, templates,
 * built-in glyphs), a pruned UI tree and a compact description for a model. All coordinates are points.
 * Device reads go through the hub; OCR runs in a pool of reused workers started on first use.
 * Callers pass a resolved device id and input their schema has already checked (the operations do both).
 */
export class Perception {
  private readonly device: DeviceView;
  private readonly pool: TesseractPool;
  private readonly ocr: OcrService;
  private readonly pixels: PixelPool;
  private readonly edges = new LruCache<string, Promise<ScreenEdges>>(EDGE_CACHE_SIZE);
  /** Glyph search results per screen (its edge maps) and query: a repeated find_icon costs nothing. */
  private readonly glyphResults = new WeakMap<ScreenEdges, Map<string, Promise<IconMatch[]>>>();

  constructor(
    private readonly hub: DeviceHub,
    options: PerceptionOptions = {},
  ) {
    this.device = hubDeviceView(hub);
    this.pool = new TesseractPool({ size: options.ocrWorkers, timeoutMs: options.ocrTimeoutMs, logger: options.logger });
    this.ocr = new OcrService(this.pool, options.ocrCacheSize ?? 32);
    this.pixels = new PixelPool({ logger: options.logger });
  }

  /** Text on screen, best match first, each with its ref; an empty list when there is none. */
  async findText(id: string, q: FindTextQuery): Promise<FindTextResult> {
    const source = q.source ?? 'auto';
    const refs = deviceRefs(this.hub, id);
    // The tree names tree matches and is what "the screen is unchanged" means for pixel matches' refs.
    const [tree, screen] = await Promise.all([this.device.uiTree(id), this.hub.screen(id)]);
    if (source !== 'ocr') {
      const treeMatches = findTextInTree(tree, screenRect(screen), q, actionableRefs(tree, refs.forTree(tree).refOf));
      // The pixels are read only where the tree is silent: on a phone a screenshot costs more than the tree.
      if (source === 'ui-tree' || treeMatches.length > 0) return { matches: treeMatches };
    }
    const shot = await this.device.screenshot(id);
    const region = q.region ? clipTo(q.region, screenRect(shot.screen)) : undefined;
    if (q.region && !region) return { matches: [] };
    const page = await this.ocr.read(new ScreenImage(shot.png, shot.scale), shot.scale, region, callerSignal());
    const ocrMatches = findTextInOcr(page, q).map((m) => ({ ref: refs.pixelRef(tree, m.bounds), ...m }));
    return { matches: ocrMatches };
  }

  /**
   * Icons by name (tree labels, then the built-in glyphs in the pixels) and/or by a template image (a bad
   * image is `invalid_argument`). With neither there is nothing to look for and nothing is found.
   */
  async findIcon(id: string, q: FindIconQuery): Promise<FindIconResult> {
    if (q.name === undefined && q.template === undefined) return { matches: [] };
    const template = q.template === undefined ? undefined : await decodeTemplate(q.template);
    const tree = await this.device.uiTree(id);
    const matches: IconMatch[] = [];
    if (q.name !== undefined) {
      const screen = await this.hub.screen(id);
      const fromTree = findIconsInTree(tree, screenRect(screen), q.name, q.region, actionableRefs(tree, deviceRefs(this.hub, id).forTree(tree).refOf));
      matches.push(...fromTree.filter((m) => q.threshold === undefined || m.confidence >= q.threshold));
    }
    const glyph = q.name === undefined ? undefined : glyphForName(q.name);
    if (glyph || template) {
      const shot = await this.device.screenshot(id);
      const edges = await this.edgesOf(new ScreenImage(shot.png, shot.scale));
      const textBoxes = textNodeBounds(tree, screenRect(shot.screen));
      const pixelMatches: IconMatch[] = [];
      if (glyph) {
        const found = await this.glyphsOn(edges, glyph, q.threshold ?? DEFAULT_LIBRARY_THRESHOLD, q.region);
        // Letters in the tree's text are not icons ("x" is not a close button).
        pixelMatches.push(...found.filter((m) => !textBoxes.some((t) => centerInside(m.bounds, t))));
      }
      if (template) {
        pixelMatches.push(
          ...(await findTemplateInPixels(
            this.pixels,
            edges,
            template,
            shot.scale,
            q.threshold ?? DEFAULT_TEMPLATE_THRESHOLD,
            q.region,
          )),
        );
      }
      for (const m of pixelMatches.sort((a, b) => b.confidence - a.confidence)) {
        if (!matches.some((k) => overlapOfSmaller(k.bounds, m.bounds) > 0.5)) matches.push({ ref: deviceRefs(this.hub, id).pixelRef(tree, m.bounds), ...m });
      }
    }
    matches.sort((a, b) => b.confidence - a.confidence || a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
    return { matches };
  }

  /** The normalized UI tree, pruned for a model. */
  async getUiTree(id: string, options: UiTreeOptions = {}): Promise<UiTreeResult> {
    const [tree, screen] = await Promise.all([this.device.uiTree(id), this.hub.screen(id)]);
    return pruneUiTree(tree, screenRect(screen), { ...options, refOf: deviceRefs(this.hub, id).forTree(tree).refOf });
  }

  /** A compact, token-budgeted description of the screen, structured and as text. */
  async describeScreen(id: string, o: DescribeOptions = {}): Promise<ScreenDescriptionResult> {
    // On an unchanged screen this is the tree and, with OCR, the pixels: the geometry and the app are known.
    const tree = o.tree ?? (await this.device.uiTree(id));
    const app = await this.device.foregroundApp(id, tree);
    let ocr: OcrPage | undefined;
    let iconNames: Map<string, string> | undefined;
    let screen: ScreenGeometry;
    if (o.includeOcrText ?? true) {
      const shot = await this.device.screenshot(id);
      screen = shot.screen;
      // One capture object: its hash and its decode serve both readers, which run side by side.
      const capture = new ScreenImage(shot.png, shot.scale);
      [ocr, iconNames] = await Promise.all([
        // Only what the tree does not already say: the description keeps no OCR line where it does.
        this.ocr.read(capture, shot.scale, undefined, callerSignal(), regionsTheTreeTells(tree, screenRect(shot.screen))),
        this.nameUnlabeledIcons(tree, capture, screenRect(shot.screen)),
      ]);
    } else {
      screen = await this.hub.screen(id);
      // The tree is fresh; the cached geometry may predate a rotation: read it again when they disagree.
      if (tree.bounds.width > 0 && tree.bounds.height > 0 && isLandscape(tree.bounds) !== isLandscape(screen)) {
        this.hub.invalidateScreen(id);
        screen = await this.hub.screen(id);
      }
    }
    return describeScreen({
      tree,
      screen,
      orientation: isLandscape(screen) ? 'landscape' : 'portrait',
      app,
      ocr,
      iconNames,
      maxElements: o.maxElements,
      refOf: deviceRefs(this.hub, id).forTree(tree).refOf,
    });
  }

  /** The app in front, for the screen whose tree is `tree` (just read): cheap while the same app stays in front. */
  foregroundApp(id: string, tree: UiNode): Promise<{ appId: string; name?: string } | undefined> {
    return this.device.foregroundApp(id, tree);
  }

  /** OCR work done so far (recognitions run, cache hits). */
  ocrStats(): OcrStats & { workers: number } {
    return { ...this.ocr.stats(), workers: this.pool.workerCount };
  }

  /** Stops the OCR and icon-matching workers. Idempotent. */
  async close(): Promise<void> {
    this.ocr.clear();
    this.edges.clear();
    await Promise.all([this.pool.close(), this.pixels.close()]);
  }

  private glyphsOn(edges: ScreenEdges, glyph: GlyphName, threshold: number, region?: Rect): Promise<IconMatch[]> {
    let results = this.glyphResults.get(edges);
    if (!results) {
      results = new Map();
      this.glyphResults.set(edges, results);
    }
    const key = JSON.stringify([glyph, threshold, region ?? null]);
    let found = results.get(key);
    if (!found) {
      found = findGlyphInPixels(this.pixels, edges, glyph, threshold, region);
      results.set(key, found);
      found.catch(() => results.delete(key));
    }
    return found;
  }

  /** What the built-in glyphs recognize on the tree's unlabeled icon buttons (node id → glyph name). */
  private async nameUnlabeledIcons(tree: UiNode, capture: ScreenImage, screen: Rect): Promise<Map<string, string>> {
    const unlabeled = visibleNodes(tree, screen)
      .filter((v) => ICON_BUTTON_ROLES.has(v.node.role) && !v.node.label && !descendantText(v.node))
      .slice(0, MAX_ICONS_NAMED);
    const names = new Map<string, string>();
    if (unlabeled.length === 0) return names;
    const edges = await this.edgesOf(capture);
    for (const { node, bounds } of unlabeled) {
      const glyph = await identifyGlyph(this.pixels, edges, bounds);
      if (glyph?.label) names.set(node.id, glyph.label);
    }
    return names;
  }

  private edgesOf(capture: ScreenImage): Promise<ScreenEdges> {
    const key = capture.hash;
    let edges = this.edges.get(key);
    if (!edges) {
      edges = screenEdges(capture, this.pixels);
      this.edges.set(key, edges);
      edges.catch(() => this.edges.delete(key));
    }
    return edges;
  }
}

function screenRect(screen: { width: number; height: number }): Rect {
  return { x: 0, y: 0, width: screen.width, height: screen.height };
}

async function decodeTemplate(template: string): Promise<GrayImage> {
  const base64 = template.replace(/^data:image\/[a-z+.-]+;base64,/i, '').replace(/\s+/g, '');
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? Buffer.from(base64, 'base64') : undefined;
  let gray: GrayImage | undefined;
  try {
    if (bytes && bytes.length > 0) {
      // The decoded image's size, read from its header before any pixel is decoded.
      const meta = await sharp(bytes).metadata();
      checkTemplateSize(meta.width ?? 0, meta.height ?? 0);
      gray = await decodeGray(bytes);
    }
  } catch (cause) {
    if (cause instanceof ApexError) throw cause;
    gray = undefined;
  }
  if (!gray || gray.width < 4 || gray.height < 4) {
    throw invalidArgument(
      'template must be a base64-encoded PNG image of at least 4×4 pixels.',
      [{ path: 'template', message: 'is not a readable base64 PNG image' }],
      'Crop the icon from a screenshot, encode the PNG bytes as base64, and send that string.',
    );
  }
  return gray;
}

function textNodeBounds(tree: UiNode, screen: Rect): Rect[] {
  return visibleNodes(tree, screen)
    .filter((v) => v.node.role === 'text' && Boolean(v.node.label))
    .map((v) => v.bounds);
}

function centerInside(inner: Rect, outer: Rect): boolean {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return cx >= outer.x && cy >= outer.y && cx <= outer.x + outer.width && cy <= outer.y + outer.height;
}

function isLandscape(size: { width: number; height: number }): boolean {
  return size.width > size.height;
}

/**
 * Refs for matches: text inside an actionable element (a cell's title) is named by that element's ref, the
 * one describe_screen lists and a tap by ref presses; other nodes by their own.
 */
function actionableRefs(root: UiNode, refOf: (node: UiNode) => string | undefined): (node: UiNode) => string | undefined {
  const owner = new Map<UiNode, UiNode>();
  const walk = (node: UiNode, actionable?: UiNode) => {
    const self = actionable ?? (isInteractive(node.role) ? node : undefined);
    owner.set(node, self ?? node);
    for (const child of node.children) walk(child, self);
  };
  walk(root);
  return (node) => refOf(owner.get(node) ?? node);
}
