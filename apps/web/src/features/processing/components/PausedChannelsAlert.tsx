import { useQuery } from "@tanstack/react-query";
import { PauseCircleIcon, PlayIcon } from "lucide-react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { formatCount, formatJobDate } from "#web/lib/format";
import { channelPausesQueryOptions } from "../api";
import { useResumeChannels } from "../mutations";

const heldText = (held: number) =>
  held === 1 ? "1 publication is waiting." : `${formatCount(held)} publications are waiting.`;

/**
 * Tells a feed's owner that a channel refused the feed's credentials and is paused (its publications held, not
 * failed one by one), and offers Resume publishing once the credentials are fixed. Shows nothing to anyone who
 * does not manage the feed.
 */
export function PausedChannelsAlert({ feedId }: { feedId: string }) {
  const { data: pauses } = useQuery(channelPausesQueryOptions(feedId));
  const resume = useResumeChannels(feedId);
  if (!pauses?.length) return null;

  const resumeAll = () =>
    resume.mutate(undefined, {
      onSuccess: ({ requeued }) =>
        toast.success("Publishing resumed", {
          description:
            requeued === 0
              ? "New approvals publish again."
              : `${formatCount(requeued)} held ${requeued === 1 ? "publication is" : "publications are"} being sent again.`,
        }),
      onError: (error) =>
        toast.error("Could not resume publishing", { description: serverMessage(error) ?? "Unknown error" }),
    });

  return (
    <Alert variant="warning" role="alert" className="flex flex-col gap-3" data-testid="paused-channels">
      <div className="flex items-start gap-3">
        <PauseCircleIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <div className="flex min-w-0 flex-col gap-2">
          <p className="font-semibold">
            {pauses.length === 1
              ? `Publishing to ${pauses[0].stepName ?? pauses[0].pluginName} is paused`
              : `Publishing to ${pauses.length} channels is paused`}
          </p>
          <ul className="flex flex-col gap-2">
            {pauses.map((pause) => (
              <li key={pause.channelKey} className="text-sm break-words">
                <span className="font-medium">{pause.stepName ?? pause.pluginName}</span> refused this feed's
                credentials on {formatJobDate(pause.pausedAt)}: {pause.message} {heldText(pause.held)}
              </li>
            ))}
          </ul>
          <p className="text-sm">
            Fix the token or key (setting one of the feed's secrets resumes publishing by itself), then
            resume.
          </p>
        </div>
      </div>
      <div>
        <Button size="sm" onClick={resumeAll} loading={resume.isPending}>
          <PlayIcon aria-hidden="true" />
          Resume publishing
        </Button>
      </div>
    </Alert>
  );
}
