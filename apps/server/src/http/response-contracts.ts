import { errorEnvelopeSchema } from "@curate/core";
import type { RouteConfig } from "@hono/zod-openapi";
import type { z } from "zod";
import { AppError } from "../errors.ts";

/** One way an answer differs from what its route declares: where in the body (empty: the answer itself), and how. */
export interface ContractIssue {
  path: string;
  message: string;
}

export interface ContractBreach {
  /** `GET /feeds/{id}`, as the route declares it (the API's own paths, without `/api`). */
  route: string;
  status: number;
  issues: ContractIssue[];
}

/**
 * Statuses any route may answer without declaring them: what no route's own logic decides. 500 (an unexpected
 * failure) and 503 (the database or a service is lost) can happen anywhere; 400 wherever the router validates a
 * request part; 415 wherever it requires a JSON body. Everything else a route answers — 401 (it needs a sign-in, which
 * is also what makes the OpenAPI document leave anonymous callers out), 403, 404, 409, 413, 429 and every success —
 * it must declare. The checks run inside the route, behind its token guard: what the app answers before a route runs
 * (the request guard's 400/413/431, the session loader's 401 for a bad token, the mutation guard's 401/403, the write
 * budget's 429, the token guard's 403, a cached public answer) is not that route's answer and is not checked.
 */
function implicitlyAllowed(route: RouteConfig, status: number): boolean {
  if (status === 500 || status === 503) return true;
  const request = route.request ?? {};
  if (status === 400) return Boolean(request.params || request.query || request.body || request.headers);
  return status === 415 && Boolean(request.body);
}

const isJson = (response: Response) =>
  /^application\/json\b/i.test(response.headers.get("content-type") ?? "");

function declaredSchema(route: RouteConfig, status: number): { declared: boolean; schema?: z.ZodType } {
  const declared = route.responses[status] ?? route.responses[String(status)];
  if (!declared) return { declared: false };
  // A shared response named by reference carries no schema here; none of the API's routes declares one that way.
  if ("$ref" in declared) return { declared: true };
  const content = (declared.content ?? {}) as Record<string, { schema?: unknown } | undefined>;
  return { declared: true, schema: content["application/json"]?.schema as z.ZodType | undefined };
}

/**
 * How `response` differs from what `route` declares for its status, or null when it keeps to it. The status must be
 * declared (or implicitly allowed, above); a status declared with a JSON body must answer JSON that parses with its
 * schema (an implicit error with the error envelope's) and says its own status in `statusCode`. Answers of statuses
 * declared in other media types are left alone: the moderation log's NDJSON and the subscribers' CSV (their error
 * answers are JSON and checked), redirects and answers without a body (204, 304). RSS files, ActivityPub documents,
 * uploads, metrics and the SPA are not served by these routers at all. Parses a copy of the body; nothing else is
 * read or asked.
 */
export async function responseBreach(route: RouteConfig, response: Response): Promise<ContractBreach | null> {
  const status = response.status;
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const breach = (issues: ContractIssue[]) => ({ route: name, status, issues });
  const { declared, schema } = declaredSchema(route, status);
  if (!declared && !implicitlyAllowed(route, status)) {
    return breach([{ path: "", message: `status ${status} is not among the route's declared responses` }]);
  }
  if (!isJson(response)) {
    const type = response.headers.get("content-type");
    return schema
      ? breach([
          { path: "", message: `declares a JSON body, but answers ${type ? `in ${type}` : "without one"}` },
        ])
      : null;
  }
  const expected = schema ?? (status >= 400 ? errorEnvelopeSchema : undefined);
  if (!expected)
    return breach([{ path: "", message: `answers JSON, but status ${status} declares no JSON body` }]);
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return breach([{ path: "", message: "says application/json, but its body is not JSON" }]);
  }
  const issues: ContractIssue[] = [];
  const parsed = expected.safeParse(body);
  if (parsed.success) issues.push(...oncePerField(undeclaredFields(body, parsed.data, [])));
  else {
    issues.push(
      ...parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
    );
  }
  const said = (body as { statusCode?: unknown } | null)?.statusCode;
  if (typeof said === "number" && said !== status) {
    issues.push({ path: "statusCode", message: `says ${said}, but the answer's status is ${status}` });
  }
  return issues.length ? breach(issues) : null;
}

/**
 * Fields the answer sends that its schema does not declare. Objects parse without them (zod drops unknown keys), so
 * they are what the answer has and the parsed copy lacks: no client generated from the contract knows they exist, and
 * a field nobody declared is how a column that should stay inside leaks out. Values the schema reshapes are not
 * compared.
 */
function undeclaredFields(answer: unknown, parsed: unknown, path: string[]): ContractIssue[] {
  if (Array.isArray(answer) && Array.isArray(parsed)) {
    return answer.flatMap((item, index) => undeclaredFields(item, parsed[index], [...path, String(index)]));
  }
  if (!isRecord(answer) || !isRecord(parsed) || Array.isArray(parsed)) return [];
  return Object.keys(answer).flatMap((key) =>
    key in parsed
      ? undeclaredFields(answer[key], parsed[key], [...path, key])
      : [{ path: [...path, key].join("."), message: "is sent, but the contract does not declare it" }],
  );
}

/** One issue per field of a list's items (the first item that has it), not one per item. */
function oncePerField(issues: ContractIssue[]): ContractIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const field = issue.path.replaceAll(/(^|\.)\d+(?=\.|$)/g, "$1*");
    if (seen.has(field)) return false;
    seen.add(field);
    return true;
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** The error a breach answers with: INTERNAL_ERROR naming the route, the status and every field that is off. */
export function breachError(breach: ContractBreach): AppError {
  const fields = breach.issues.map((issue) =>
    issue.path ? `${issue.path}: ${issue.message}` : issue.message,
  );
  return new AppError(
    "INTERNAL_ERROR",
    `The ${breach.status} answer of ${breach.route} breaks its contract: ${fields.join("; ")}`,
    breach.issues,
  );
}
