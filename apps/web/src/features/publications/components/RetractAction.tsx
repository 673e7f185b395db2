import { builtinPluginName, DISTRIBUTOR_ENTRIES, type Feed, recapList } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Undo2Icon } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "#web/components/ui/dialog";
import { FormField } from "#web/components/ui/form-field";
import { Textarea } from "#web/components/ui/textarea";
import { feedQueryOptions } from "#web/features/feeds/api";
import { useRetractSubmission } from "../mutations";

const NOTE_LIMIT = 2000;

interface RetractActionProps {
  feedId: string;
  submissionId: string;
  /** The post's author as the app shows them (`@name`, a blog author's name). */
  author: string;
  /** After the server accepted the retraction. */
  onRetracted?: () => void;
}

/**
 * What a retraction does in each channel the feed publishes to (its stream's and its recaps'), as each distributor's
 * descriptor says; every channel's, while the feed is not known here.
 */
export function retractionLines(feed: Pick<Feed, "config"> | undefined): string[] {
  if (!feed) return DISTRIBUTOR_ENTRIES.map(([, descriptor]) => descriptor.retraction);
  const outputs = feed.config.outputs;
  const distributors = [
    ...(outputs?.stream?.distribute ?? []),
    ...recapList(outputs?.recap).flatMap((recap) => recap.distribute ?? []),
  ];
  const names = new Set(distributors.map((distributor) => builtinPluginName(distributor.plugin)));
  return DISTRIBUTOR_ENTRIES.filter(([name]) => names.has(name)).map(
    ([, descriptor]) => descriptor.retraction,
  );
}

/**
 * Retract, for a moderator on an approved post: a confirmation with an optional note, then the post becomes
 * rejected and each of its publications is taken back where the channel allows it.
 */
export function RetractAction({ feedId, submissionId, author, onRetracted }: RetractActionProps) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const retract = useRetractSubmission(feedId);
  const { data: feed } = useQuery({ ...feedQueryOptions(feedId), enabled: open });
  const lines = retractionLines(feed);

  const confirm = () => {
    retract.mutate(
      { submissionId, note },
      {
        onSuccess: () => {
          setOpen(false);
          setNote("");
          onRetracted?.();
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !retract.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary" className="text-red-700 hover:bg-red-50 hover:text-red-800">
          <Undo2Icon aria-hidden="true" />
          Retract
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Retract this post?"
        description={`The post by ${author} becomes rejected in #${feedId}, and every place it was published is taken back where the channel allows it.`}
      >
        <div className="flex flex-col gap-4">
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <FormField label="Note (optional, kept in the moderation history)">
            <Textarea
              value={note}
              maxLength={NOTE_LIMIT}
              placeholder="Why is it taken back?"
              disabled={retract.isPending}
              onChange={(event) => setNote(event.target.value)}
              className="min-h-20"
            />
          </FormField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="secondary" disabled={retract.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button
              onClick={confirm}
              loading={retract.isPending}
              className="bg-red-700 text-white hover:bg-red-800"
            >
              <Undo2Icon aria-hidden="true" />
              Retract post
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
