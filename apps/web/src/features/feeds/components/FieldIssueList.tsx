import { describeIssue } from "#web/features/feeds/field-labels";
import type { FieldIssue } from "#web/features/feeds/mutations";

/**
 * The fields a feed config was refused for, each said in words ("Stream transform 3: plugin name is required"),
 * each once: two checks of one rule (the page's and the server's) make one line.
 */
export function FieldIssueList({ issues }: { issues: readonly FieldIssue[] }) {
  const lines = [...new Set(issues.map(describeIssue))];
  return (
    <ul className="list-disc pl-5" data-testid="field-issues">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
