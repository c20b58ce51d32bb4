import { invalidArgument, type ApexError, type FieldIssue } from './apex-error';
import { echoName, MAX_ECHOED_LENGTH, MAX_LISTED, MAX_PUBLIC_TEXT_LENGTH, truncateText, withMore } from './echo';

/** The subset of a zod issue we read; keeps this lib free of a zod version. */
interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  /** Set on zod's `unrecognized_keys` issues. */
  keys?: readonly string[];
}

/** The dotted path of a field, cut by `echoName`: a path may hold a client's key of any length. */
function joinPath(path: readonly PropertyKey[]): string {
  return echoName(path.map((segment) => truncateText(String(segment), MAX_ECHOED_LENGTH)).join('.'));
}

function isUnknownKeys(issue: ZodLikeIssue): issue is ZodLikeIssue & { keys: readonly string[] } {
  return issue.code === 'unrecognized_keys' && issue.keys !== undefined && issue.keys.length > 0;
}

/** One issue per bad field, the first `max` of them; an object's unknown keys each become an issue of their own. */
export function fieldIssuesFrom(issues: readonly ZodLikeIssue[], max = Infinity): FieldIssue[] {
  const fields: FieldIssue[] = [];
  for (const issue of issues) {
    if (fields.length >= max) break;
    if (!isUnknownKeys(issue)) {
      fields.push({ path: joinPath(issue.path), message: truncateText(issue.message, MAX_PUBLIC_TEXT_LENGTH) });
      continue;
    }
    for (const key of issue.keys.slice(0, max - fields.length)) {
      fields.push({ path: joinPath([...issue.path, key]), message: 'is not a known field' });
    }
  }
  return fields;
}

/** How many bad fields the issues name, without listing them. */
function countFields(issues: readonly ZodLikeIssue[]): number {
  return issues.reduce((count, issue) => count + (isUnknownKeys(issue) ? issue.keys.length : 1), 0);
}

/**
 * An `invalid_argument` error naming the bad fields of a failed zod parse: the first `MAX_LISTED`, then how
 * many more, so that a body of a million unknown keys costs no more than a few.
 */
export function invalidInput(issues: readonly ZodLikeIssue[], what = 'input', hint?: string): ApexError {
  const fields = fieldIssuesFrom(issues, MAX_LISTED);
  const more = countFields(issues) - fields.length;
  const summary = withMore(
    fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)),
    more,
    '; ',
  );
  return invalidArgument(`Invalid ${what}: ${summary}`, fields, hint);
}
