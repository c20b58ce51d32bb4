import type { Point, Rect, Role, UiNode } from '@apex/port';

/** Anything with pino's four level methods; perception logs little and never on stdout. */
export interface PerceptionLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface PerceptionOptions {
  /** OCR workers in the pool at most; default 2 (1 on a single core). */
  ocrWorkers?: number;
  /** OCR results kept (per screenshot content hash and region); default 32. */
  ocrCacheSize?: number;
  /** Longest time one OCR job may take before it fails (default 120 s). */
  ocrTimeoutMs?: number;
  logger?: PerceptionLogger;
}

export type TextSource = 'auto' | 'ui-tree' | 'ocr';

export interface FindTextQuery {
  text: string;
  /** Whole text must equal the query (whitespace collapsed; case per `caseSensitive`). Default false. */
  exact?: boolean;
  /** Default false. */
  caseSensitive?: boolean;
  /** Only look here (points). */
  region?: Rect;
  /** Default 'auto': the UI tree first, then OCR for text the tree lacks. */
  source?: TextSource;
}

export interface TextMatch {
  /** The element's ref (tree matches) or a ref valid while the screen is unchanged (pixel matches). */
  ref?: string;
  /** The text as found (the tree's label/value, or the OCR words joined). */
  text: string;
  bounds: Rect;
  center: Point;
  /** 0..1: how well it matches × how sure OCR is. */
  confidence: number;
  source: 'ui-tree' | 'ocr';
}

export interface FindTextResult {
  matches: TextMatch[];
}

/** Give a name, a template, or both (with neither, nothing is looked for and nothing found). */
export interface FindIconQuery {
  /** A name such as "search", "settings", "trash": matched against the tree's labels and the built-in glyphs. */
  name?: string;
  /** A base64 PNG (optionally a data: URL), e.g. cropped from a screenshot at the device's pixel scale. */
  template?: string;
  /** 0..1 minimum confidence; default 0.75 for templates, 0.6 for the built-in glyphs. */
  threshold?: number;
  region?: Rect;
}

export interface IconMatch {
  /** As TextMatch's. */
  ref?: string;
  /** The tree's label, or the built-in glyph's name. */
  label?: string;
  bounds: Rect;
  center: Point;
  confidence: number;
  source: 'ui-tree' | 'template' | 'library';
}

export interface FindIconResult {
  matches: IconMatch[];
}

export interface UiTreeOptions {
  /** Keep only what can be acted on (buttons, fields, switches, cells, links, keys, icons, sliders) and the containers that hold them. */
  interactiveOnly?: boolean;
  /** Depth of the pruned tree to keep (root = 0). */
  maxDepth?: number;
  /** 'tree' (default): nested `root`; 'flat': `nodes` in document order with depth and parentId. */
  format?: 'tree' | 'flat';
}

/** A normalized, pruned node. Flags appear only when true. */
export interface UiTreeNode {
  id: string;
  ref?: string;
  role: Role;
  label?: string;
  value?: string;
  placeholder?: string;
  bounds: Rect;
  center: Point;
  disabled?: boolean;
  selected?: boolean;
  focused?: boolean;
  children?: UiTreeNode[];
}

export interface FlatUiNode extends Omit<UiTreeNode, 'children'> {
  depth: number;
  parentId?: string;
}

export interface UiTreeResult {
  format: 'tree' | 'flat';
  /** Set when format is 'tree'. */
  root?: UiTreeNode;
  /** Set when format is 'flat'. */
  nodes?: FlatUiNode[];
  /** Nodes returned. */
  nodeCount: number;
  /** True when maxDepth cut nodes off. */
  truncated: boolean;
}

export interface DescribeOptions {
  /** Most interactive elements to list (default 60); the rest are counted in `omittedElements`. */
  maxElements?: number;
  /** Read the pixels: text the tree lacks (OCR) and what unlabeled icon buttons show (default true; false is fast). */
  includeOcrText?: boolean;
  /** A tree of this device just read (e.g. the settled screen after an action): described instead of reading another. */
  tree?: UiNode;
}

export interface DescribedElement {
  /** The element's ref, e.g. "e12": the same across observations while it stays on screen (see @apex/hub refs). */
  ref: string;
  /** The tree node's id, for element-level operations. */
  nodeId: string;
  role: Role;
  label?: string;
  value?: string;
  /** For an icon button the tree leaves unnamed: the built-in glyph its pixels show ("search", "trash"…). */
  icon?: string;
  center: Point;
  /** The visible part, in points (set-of-marks boxes; results show it only on request). */
  bounds?: Rect;
  disabled?: boolean;
  selected?: boolean;
  focused?: boolean;
}

export interface DescribedText {
  text: string;
  center: Point;
  bounds: Rect;
  confidence: number;
}

export interface ScreenDescription {
  app?: { appId: string; name?: string };
  screen: { width: number; height: number; scale: number };
  orientation: 'portrait' | 'landscape';
  /** Set when an alert is up. */
  alert?: { title?: string; message?: string; buttons: string[] };
  keyboardVisible: boolean;
  elements: DescribedElement[];
  /** Interactive elements beyond `maxElements`. */
  omittedElements: number;
  /** Short id → node id and tap point. */
  refs: Record<string, { nodeId: string; center: Point }>;
  /** Text the tree shows outside the listed elements (titles, headers, captions), top to bottom. */
  staticText: { text: string; center: Point }[];
  /** Visible text the tree does not have (OCR), top to bottom. */
  ocrText: DescribedText[];
}

export interface ScreenDescriptionResult extends ScreenDescription {
  /** The compact rendering for a model. */
  text: string;
}
