import { describeIssue } from "#web/features/feeds/field-labels";
import type { FieldIssue } from "#web/features/feeds/mutations";

/** The fields a feed config was refused for, each said in words ("Stream transform 3: plugin name is required"). */
export function FieldIssueList({ issues }: { issues: readonly FieldIssue[] }) {
  return (
    <ul className="list-disc pl-5" data-testid="field-issues">
      {issues.map((issue) => (
        <li key={`${issue.path}:${issue.message}`}>{describeIssue(issue)}</li>
      ))}
    </ul>
  );
}
