import {
  type FeedConfig,
  TEST_BENCH_DEFAULT_COUNT,
  TEST_BENCH_MAX_COUNT,
  type TestBenchRun,
} from "@curate/core";
import { FlaskConicalIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { FieldIssueList } from "#web/features/feeds/components/FieldIssueList";
import { type FieldIssue, fieldIssues } from "#web/features/feeds/mutations";
import { serverMessage } from "#web/lib/api";
import { useTestConfig } from "../api";
import { ChannelPreviewList } from "./ChannelPreviewList";

/** The editor's working config, or why there is none to test (JSON that does not parse, field problems). */
export type WorkingConfig = { config: FeedConfig } | { problem: string; issues?: readonly FieldIssue[] };

interface ConfigTestBenchProps {
  feedId: string;
  /** Read when the owner presses the button: the form or JSON view as it is now, saved or not. */
  workingConfig: () => WorkingConfig;
}

/** The paths the server reports are the request's (`config.name`); the page names the config's own fields. */
const configIssues = (issues: FieldIssue[]) =>
  issues.map((issue) => ({ ...issue, path: issue.path.replace(/^config\./, "") }));

/**
 * "Test this config": runs the working config as dry runs against the feed's latest approved posts and shows, per
 * post and channel, what would be published or which step would fail. Nothing is sent, nothing is saved.
 */
export function ConfigTestBench({ feedId, workingConfig }: ConfigTestBenchProps) {
  const test = useTestConfig(feedId);
  const [count, setCount] = useState(String(TEST_BENCH_DEFAULT_COUNT));
  const [local, setLocal] = useState<{ problem: string; issues?: readonly FieldIssue[] } | null>(null);
  const parsedCount = Number(count);
  const countError =
    Number.isInteger(parsedCount) && parsedCount >= 1 && parsedCount <= TEST_BENCH_MAX_COUNT
      ? undefined
      : `Between 1 and ${TEST_BENCH_MAX_COUNT}`;

  const run = () => {
    if (countError) return;
    const working = workingConfig();
    if ("problem" in working) {
      setLocal(working);
      test.reset();
      return;
    }
    setLocal(null);
    test.mutate({ config: working.config, count: parsedCount });
  };

  const refused = test.error ? configIssues(fieldIssues(test.error)) : [];

  return (
    <Card data-testid="config-test-bench">
      <CardHeader>
        <CardTitle>Test this config</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <p className="text-sm text-muted">
          Runs the configuration above, saved or not, as a dry run against this feed's latest approved posts:
          every transform runs (AI included), each channel renders what it would publish, and nothing is sent
          or saved.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <FormField label="Posts to test" error={countError} className="w-36">
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={TEST_BENCH_MAX_COUNT}
              value={count}
              onChange={(event) => setCount(event.target.value)}
            />
          </FormField>
          <Button
            onClick={run}
            loading={test.isPending}
            disabled={!!countError}
            data-testid="run-config-test"
          >
            <FlaskConicalIcon aria-hidden="true" />
            Test this config
          </Button>
        </div>

        {local ? (
          <Alert title={local.problem}>
            {local.issues?.length ? <FieldIssueList issues={local.issues} /> : null}
          </Alert>
        ) : null}
        {test.error ? (
          <Alert title={refused.length ? "The configuration has problems:" : "The test could not run"}>
            {refused.length ? (
              <FieldIssueList issues={refused} />
            ) : (
              (serverMessage(test.error) ?? "Unknown error")
            )}
          </Alert>
        ) : null}
        {test.data?.note ? <Alert variant="info">{test.data.note}</Alert> : null}
        {test.data?.runs.length ? (
          <ol className="flex flex-col gap-4" data-testid="config-test-results" aria-label="Results per post">
            {test.data.runs.map((run) => (
              <TestRun key={run.submissionId} run={run} />
            ))}
          </ol>
        ) : null}
      </CardContent>
    </Card>
  );
}

function TestRun({ run }: { run: TestBenchRun }) {
  const failed = run.result.channels.filter((channel) => channel.status !== "rendered").length;
  return (
    <li className="rounded-md border border-line bg-zinc-50/60 p-3 sm:p-4" data-testid="config-test-run">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 text-sm text-ink">
          <span className="font-medium">@{run.username}</span>{" "}
          <span className="text-muted [overflow-wrap:anywhere]">
            {run.content.length > 140 ? `${run.content.slice(0, 140)}…` : run.content}
          </span>
        </p>
        {failed ? (
          <Badge tone="red">
            {failed} of {run.result.channels.length} channels would fail
          </Badge>
        ) : (
          <Badge tone="green">All channels render</Badge>
        )}
      </div>
      <ChannelPreviewList result={run.result} pending={false} error={null} />
    </li>
  );
}
