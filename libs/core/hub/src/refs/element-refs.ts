import type { Point, Rect, UiNode } from '@apex/port';

/** Identities remembered per device; past this the least recently seen are forgotten (their refs then resolve to nothing). */
const MAX_IDENTITIES = 20_000;
/** Matches found only in pixels remembered per device: they live as long as their screen, a handful is plenty. */
const MAX_PIXEL_REFS = 256;

/** A ref resolved against the current screen: the element's node (pixel matches have none) and where it is now. */
export interface ResolvedElement {
  ref: string;
  /** The visible part of the element, in points. */
  bounds: Rect;
  center: Point;
  node?: UiNode;
}

/** The refs of one tree, computed once per tree object. */
export interface TreeRefs {
  /** The ref of a node of this tree. */
  refOf(node: UiNode): string | undefined;
  /** The node of this tree a ref names, if it is in the tree. */
  nodeOf(ref: string): UiNode | undefined;
  /**
   * Changes when anything on the screen does (an element, its text, its place): what "unchanged" means for
   * pixel refs and observe. Computed on first use: a tap by ref does not need it.
   */
  readonly fingerprint: string;
}

interface PixelRef {
  fingerprint: string;
  bounds: Rect;
}

/**
 * The refs of one device session. A ref names an element by its identity — role, label (or placeholder) and
 * path in the tree, with its index among same-identity siblings — not by its position or value: an element
 * that moved, scrolled or changed value keeps its ref, and a ref is never given to another identity (refs are
 * numbered, never reused). Matches found only in pixels get refs bound to the screen they were found on.
 */
export class DeviceRefs {
  private readonly refByIdentity = new Map<string, string>();
  private readonly pixelRefs = new Map<string, PixelRef>();
  private readonly trees = new WeakMap<UiNode, TreeRefs>();
  private counter: number;
  /** The last tree seen on this device (what "the screen changed" compares with); unset when an action went unobserved. */
  lastSeen: TreeRefs | undefined;

  /** `after`: the highest ref number an earlier session of this device may have issued (its refs must not come back). */
  constructor(after = 0) {
    this.counter = after;
  }

  /** The highest ref number issued so far. */
  get issued(): number {
    return this.counter;
  }

  forTree(root: UiNode): TreeRefs {
    const known = this.trees.get(root);
    if (known) {
      this.lastSeen = known;
      return known;
    }
    const refs = new Map<UiNode, string>();
    const nodes = new Map<string, UiNode>();
    const walk = (node: UiNode, identity: string) => {
      const ref = this.refFor(identity);
      refs.set(node, ref);
      nodes.set(ref, node);
      const seen = new Map<string, number>();
      for (const child of node.children) {
        const key = identityKey(child);
        const index = seen.get(key) ?? 0;
        seen.set(key, index + 1);
        walk(child, `${identity}/${key}#${index}`);
      }
    };
    walk(root, `${identityKey(root)}#0`);
    let fingerprint: string | undefined;
    const tree: TreeRefs = {
      refOf: (node) => refs.get(node),
      nodeOf: (ref) => nodes.get(ref),
      get fingerprint() {
        fingerprint ??= fingerprintOf(root, refs);
        return fingerprint;
      },
    };
    this.trees.set(root, tree);
    this.lastSeen = tree;
    return tree;
  }

  /** A ref for a match found only in the pixels of the screen `root` is the tree of. */
  pixelRef(root: UiNode, bounds: Rect): string {
    const fingerprint = this.forTree(root).fingerprint;
    // The same match on the same screen keeps its ref (find_text asked twice).
    for (const [known, pixel] of this.pixelRefs) if (pixel.fingerprint === fingerprint && sameRect(pixel.bounds, bounds)) return known;
    const ref = `e${++this.counter}`;
    this.pixelRefs.set(ref, { fingerprint, bounds });
    if (this.pixelRefs.size > MAX_PIXEL_REFS) this.pixelRefs.delete(this.pixelRefs.keys().next().value as string);
    return ref;
  }

  /** Where `ref` is on the screen whose tree is `root`, or undefined when it is not (gone, scrolled away, another screen). */
  resolve(ref: string, root: UiNode, screen: Rect): ResolvedElement | undefined {
    const tree = this.forTree(root);
    const pixel = this.pixelRefs.get(ref);
    if (pixel) return pixel.fingerprint === tree.fingerprint ? { ref, bounds: pixel.bounds, center: centerOfRect(pixel.bounds) } : undefined;
    const node = tree.nodeOf(ref);
    if (!node?.visible) return undefined;
    const bounds = clip(node.bounds, screen);
    return bounds && { ref, bounds, center: centerOfRect(bounds), node };
  }

  private refFor(identity: string): string {
    let ref = this.refByIdentity.get(identity);
    // Re-inserted on every sighting: the Map's order is least recently seen first.
    if (ref !== undefined) this.refByIdentity.delete(identity);
    else ref = `e${++this.counter}`;
    this.refByIdentity.set(identity, ref);
    if (this.refByIdentity.size > MAX_IDENTITIES) this.refByIdentity.delete(this.refByIdentity.keys().next().value as string);
    return ref;
  }
}

/** Every node's ref (its identity), value, state and place: equal for screens that look the same. */
function fingerprintOf(root: UiNode, refs: Map<UiNode, string>): string {
  const parts: string[] = [];
  const walk = (node: UiNode) => {
    const b = node.bounds;
    parts.push(`${refs.get(node)}|${node.value ?? ''}|${node.visible ? 1 : 0}${node.focused ? 1 : 0}${node.selected ? 1 : 0}|${b.x},${b.y},${b.width},${b.height}`);
    node.children.forEach(walk);
  };
  walk(root);
  return parts.join('\n');
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function identityKey(node: UiNode): string {
  return `${node.role}:${node.label || node.placeholder || ''}`;
}

function clip(rect: Rect, bounds: Rect): Rect | undefined {
  const x = Math.max(rect.x, bounds.x);
  const y = Math.max(rect.y, bounds.y);
  const right = Math.min(rect.x + rect.width, bounds.x + bounds.width);
  const bottom = Math.min(rect.y + rect.height, bounds.y + bounds.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/** The centre rounded to 0.1 point, as descriptions report it. */
function centerOfRect(rect: Rect): Point {
  const round1 = (value: number) => Math.round(value * 10) / 10;
  return { x: round1(rect.x + rect.width / 2), y: round1(rect.y + rect.height / 2) };
}
