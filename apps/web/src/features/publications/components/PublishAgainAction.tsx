import type { Publication } from "@curate/core";
import { CopyPlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "#web/components/ui/dialog";
import { usePublishAgain } from "../mutations";

/**
 * Publish again as a new post, for the live entry of a channel: re-runs (retry, reprocess, tweak) only ever edit
 * what is live, so a second copy is this explicit, confirmed action. The first copy stays listed.
 */
export function PublishAgainAction({ publication }: { publication: Publication }) {
  const [open, setOpen] = useState(false);
  const publish = usePublishAgain();
  const channel = publication.channel ?? publication.pluginName;

  const confirm = () => {
    publish.mutate(
      { publicationId: publication.id, feedId: publication.feedId },
      { onSuccess: () => setOpen(false) },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !publish.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost">
          <CopyPlusIcon aria-hidden="true" />
          Publish again as new post
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Post a second copy to ${channel}?`}
        description={`Retries, reprocesses and tweaks edit the ${channel} post that is live now. This posts a new one beside it instead: readers of #${publication.feedId} see the post twice.`}
      >
        <div className="flex flex-col gap-4">
          <p className="text-sm text-muted">
            The new copy gets its own ledger entry and becomes the one later re-runs edit; this one stays
            listed as an older copy, which you can retract.
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="secondary" disabled={publish.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button onClick={confirm} loading={publish.isPending}>
              <CopyPlusIcon aria-hidden="true" />
              Post a second copy
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
