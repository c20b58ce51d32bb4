import { invalidArgument, type ApexError, type FieldIssue } from './apex-error';

/** The subset of a zod issue we read; keeps this lib free of a zod version. */
interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  /** Set on zod's `unrecognized_keys` issues. */
  keys?: readonly string[];
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join('.');
}

/** One issue per bad field; an object's unknown keys each become an issue of their own. */
export function fieldIssuesFrom(issues: readonly ZodLikeIssue[]): FieldIssue[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' && issue.keys?.length
      ? issue.keys.map((key) => ({ path: joinPath([...issue.path, key]), message: 'is not a known field' }))
      : [{ path: joinPath(issue.path), message: issue.message }],
  );
}

/** An `invalid_argument` error listing every bad field of a failed zod parse. */
export function invalidInput(issues: readonly ZodLikeIssue[], what = 'input', hint?: string): ApexError {
  const fields = fieldIssuesFrom(issues);
  const summary = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
  return invalidArgument(`Invalid ${what}: ${summary}`, fields, hint);
}
