import { invalidArgument } from '@apex/errors';
import { resolveRef, type ResolvedElement } from '@apex/hub';
import type { Point } from '@apex/port';
import type { OperationContext } from './define-operation';

/** Where an action lands: the point it was given, or the current centre of the element its ref names. */
export interface ActionTarget {
  point: Point;
  element?: ResolvedElement;
}

/**
 * Exactly one of `ref` or the point `x`,`y`: both or neither is `invalid_argument`. A ref is resolved against
 * the screen as it is now (one read of the tree); an element no longer there is `element_not_found`.
 */
export async function actionTarget(ctx: OperationContext, device: string, input: { ref?: string; x?: number; y?: number }): Promise<ActionTarget> {
  const hasPoint = input.x !== undefined || input.y !== undefined;
  if (input.ref !== undefined && !hasPoint) {
    const element = await resolveRef(ctx.hub, device, input.ref);
    return { point: element.center, element };
  }
  if (input.ref === undefined && input.x !== undefined && input.y !== undefined) return { point: { x: input.x, y: input.y } };
  const path = input.ref === undefined ? (input.x === undefined ? 'x' : 'y') : 'ref';
  throw invalidArgument(
    input.ref === undefined ? 'Give either `ref` or both `x` and `y`.' : 'Give either `ref` or `x` and `y`, not both.',
    [{ path, message: 'give exactly one of ref or x and y' }],
    'Example: {"ref":"e12"} (from describe_screen) or {"x":200,"y":400} (points).',
  );
}
