import { invalidArgument, type ApexError, type FieldIssue } from './apex-error';

/** The subset of a zod issue we read; keeps this lib free of a zod version. */
interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
}

export function fieldIssuesFrom(issues: readonly ZodLikeIssue[]): FieldIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map((segment) => String(segment)).join('.'),
    message: issue.message,
  }));
}

/** An `invalid_argument` error listing every bad field of a failed zod parse. */
export function invalidInput(issues: readonly ZodLikeIssue[], what = 'input'): ApexError {
  const fields = fieldIssuesFrom(issues);
  const summary = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
  return invalidArgument(`Invalid ${what}: ${summary}`, fields);
}
