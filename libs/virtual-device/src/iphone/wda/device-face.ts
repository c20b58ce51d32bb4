import type { Phone, PhoneElement } from '../model';
import { ElementCache, staleElementMessage } from './element-cache';
import { wdLabel, wdName, wdText, wdType, wdValue, integralRect } from './attributes';
import type { Session } from './session';
import { buildTree, type TreeNode, type UiTree } from './tree';
import { WdaError } from './wda-error';

/** W3C's element key; WDA answers with it and the legacy `ELEMENT`. */
export const W3C_ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/**
 * What WDA keeps between commands: the single session, the element cache, and caches of the phone's
 * snapshot and screenshot keyed by the phone's state version.
 */
export class DeviceFace {
  session: Session | null = null;
  readonly elements = new ElementCache();
  /** Launch arguments per bundle id, for `/wda/activeAppInfo`. */
  private cachedTree: { version: number; tree: UiTree } | null = null;
  private cachedScreenshot: { version: number; base64: string } | null = null;
  private readonly sourceCache = new Map<string, { version: number; value: unknown }>();

  constructor(readonly phone: Phone) {}

  /** The foreground app's element tree, rebuilt only when the phone's state changed. */
  tree(): UiTree {
    const version = this.phone.version;
    if (this.cachedTree?.version !== version) {
      this.cachedTree = { version, tree: buildTree(this.phone.snapshot(), this.phone.activeApp()) };
    }
    return this.cachedTree.tree;
  }

  screenshotBase64(): string {
    const version = this.phone.version;
    if (this.cachedScreenshot?.version !== version) {
      this.cachedScreenshot = { version, base64: this.phone.renderPng().toString('base64') };
    }
    return this.cachedScreenshot.base64;
  }

  /** A rendered source for this state, computed once per (state, options) key. */
  cachedSource<T>(key: string, compute: () => T): T {
    const version = this.phone.version;
    const hit = this.sourceCache.get(key);
    if (hit?.version === version) return hit.value as T;
    const value = compute();
    if (this.sourceCache.size > 16) this.sourceCache.clear();
    this.sourceCache.set(key, { version, value });
    return value;
  }

  /** Ends the session (a restart, a new session, or DELETE). */
  endSession(): void {
    this.session = null;
    this.elements.clear();
  }

  /** Resolves an element id from the cache to the node on screen now; stale if unknown or gone. */
  resolveElement(id: string): TreeNode {
    const cached = this.elements.get(id);
    const node = cached ? this.tree().byUid.get(cached.uid) : undefined;
    if (!node) throw new WdaError('stale element reference', staleElementMessage(id));
    return node;
  }

  /** The element reference WDA returns for a found element, with extra attributes when not compact. */
  elementReference(node: TreeNode): Record<string, unknown> {
    const id = this.elements.store(node.element.uid, this.tree().app.pid);
    const reference: Record<string, unknown> = { ELEMENT: id, [W3C_ELEMENT_KEY]: id };
    const settings = this.session?.settings;
    if (settings && !settings.shouldUseCompactResponses) {
      for (const name of settings.elementResponseAttributes.split(',').map((n) => n.trim()).filter(Boolean)) {
        const value = responseAttribute(node.element, name);
        if (value !== undefined) reference[name] = value;
      }
    }
    return reference;
  }
}

function responseAttribute(element: PhoneElement, name: string): unknown {
  switch (name) {
    case 'type':
    case 'name':
      return wdType(element);
    case 'label':
      return wdLabel(element);
    case 'text':
      return wdText(element);
    case 'rect':
      return integralRect(element.rect);
    case 'enabled':
      return element.enabled;
    case 'displayed':
      return element.visible;
    case 'selected':
      return element.selected;
    default:
      if (name.startsWith('attribute/')) {
        const attribute = name.slice('attribute/'.length);
        if (attribute === 'name') return wdName(element);
        if (attribute === 'value') return wdValue(element);
        if (attribute === 'label') return wdLabel(element);
      }
      return undefined;
  }
}
