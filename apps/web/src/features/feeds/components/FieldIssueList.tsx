import type { FieldIssue } from "#web/features/feeds/mutations";

/** The fields a feed config was refused for, each with its path (when it has one) and the reason. */
export function FieldIssueList({ issues }: { issues: readonly FieldIssue[] }) {
  return (
    <ul className="list-disc pl-5">
      {issues.map((issue) => (
        <li key={`${issue.path}:${issue.message}`}>
          {issue.path ? <code className="font-mono">{issue.path}</code> : null} {issue.message}
        </li>
      ))}
    </ul>
  );
}
