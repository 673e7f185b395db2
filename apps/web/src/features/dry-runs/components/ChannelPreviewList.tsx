import type { DryRunResult } from "@curate/core";
import { Alert } from "#web/components/ui/alert";
import { Skeleton } from "#web/components/ui/skeleton";
import { serverMessage } from "#web/lib/api";
import { ChannelPreview } from "./ChannelPreview";

interface ChannelPreviewListProps {
  result: DryRunResult | undefined;
  pending: boolean;
  error: unknown;
}

/** A dry run's channels, one preview each, with the job's note when nothing ran. */
export function ChannelPreviewList({ result, pending, error }: ChannelPreviewListProps) {
  if (pending) {
    return (
      <div className="flex flex-col gap-3" role="status" aria-busy="true" aria-label="Rendering each channel">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
    );
  }
  if (error) {
    return <Alert title="The dry run failed">{serverMessage(error) ?? "Unknown error"}</Alert>;
  }
  if (!result) return null;
  if (result.channels.length === 0) {
    return (
      <Alert variant="info" title="Nothing would be published">
        {result.job.note ?? "This feed has no channels in its stream output."}
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-3" data-testid="channel-previews">
      {result.channels.map((channel) => (
        <ChannelPreview key={channel.branch} channel={channel} />
      ))}
    </div>
  );
}
