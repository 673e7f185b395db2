import { CheckIcon } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { usePreviewChannels } from "../api";
import { ChannelPreviewList } from "./ChannelPreviewList";

export interface PreviewDialogProps {
  feedId: string;
  submissionId: string;
  username: string;
  /** Approve the post from the preview (closes it). */
  onApprove: () => void;
  onClose: () => void;
}

/** Preview: a dry run of the feed's channels for a pending post, each shown as its channel would; Approve from it. */
export default function PreviewDialog({
  feedId,
  submissionId,
  username,
  onApprove,
  onClose,
}: PreviewDialogProps) {
  const preview = usePreviewChannels(feedId);
  const { mutate } = preview;
  useEffect(() => mutate(submissionId), [mutate, submissionId]);

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        size="lg"
        title="Preview channels"
        description={`What each of this feed's channels would publish if @${username}'s post were approved now. A dry run: nothing is sent.`}
      >
        <ChannelPreviewList result={preview.data} pending={preview.isPending} error={preview.error} />
        <div className="mt-5 flex flex-col-reverse gap-2 border-t border-line pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button
            onClick={() => {
              onApprove();
              onClose();
            }}
            data-testid="approve-from-preview"
          >
            <CheckIcon aria-hidden="true" />
            Approve
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
