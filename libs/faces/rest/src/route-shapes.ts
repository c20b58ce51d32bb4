/**
 * The catalog's path templates as a few Express routes, one per shape: `/devices/{id}/tap`,
 * `/devices/{id}/swipe`, … differ only in their last segment, a literal, and are one route whose pattern lists
 * those names. Express tries its routes one after another, each a regular expression of its own, and run
 * between other work (caches cold, as calls are) each costs microseconds: before shapes, a call to the 16th of
 * about 50 routes spent ~0.05 ms more in REST than one to the 5th. With shapes a call passes at most a dozen,
 * the device actions' shape third.
 */
export interface RouteShape<T> {
  /** For Express: the template's parameters as named groups (case-sensitive, no trailing slash). */
  pattern: RegExp;
  /** What a path this pattern matched is: its last segment names it among the shape's templates. */
  valueOf(pathname: string): T;
}

const PARAM = /^\{(\w+)\}$/;

/**
 * Groups `templates` (path templates with `{name}` parameters, each with its value) by shape, in the order each
 * shape first appears. A template whose last segment is a parameter is a shape of its own.
 */
export function routeShapesOf<T>(templates: ReadonlyMap<string, T>): RouteShape<T>[] {
  const shapes = new Map<string, { prefix: string[]; byName: Map<string, T>; named: boolean }>();
  for (const [template, value] of templates) {
    const segments = template.split('/');
    const named = !PARAM.test(segments.at(-1) as string);
    const prefix = named ? segments.slice(0, -1) : segments;
    const key = named ? `${prefix.join('/')}/*` : template;
    const shape = shapes.get(key) ?? { prefix, byName: new Map<string, T>(), named };
    shape.byName.set(named ? (segments.at(-1) as string) : '', value);
    shapes.set(key, shape);
  }
  return [...shapes.values()].map(({ prefix, byName, named }) => {
    const head = prefix.map((segment) => {
      const param = PARAM.exec(segment)?.[1];
      // An empty segment matches too, so that an empty id reaches its schema (`/devices//tap`).
      return param === undefined ? escapeRegExp(segment) : `(?<${param}>[^/]*)`;
    });
    const tail = named ? `/(?:${[...byName.keys()].map(escapeRegExp).join('|')})` : '';
    return {
      pattern: new RegExp(`^${head.join('/')}${tail}$`),
      valueOf: (pathname) => byName.get(named ? pathname.slice(pathname.lastIndexOf('/') + 1) : '') as T,
    };
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
