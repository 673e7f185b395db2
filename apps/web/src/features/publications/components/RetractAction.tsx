import { Undo2Icon } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogTrigger } from "#web/components/ui/dialog";
import { FormField } from "#web/components/ui/form-field";
import { Textarea } from "#web/components/ui/textarea";
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
 * Retract, for a moderator on an approved post: a confirmation with an optional note, then the post becomes
 * rejected and each of its publications is taken back where the channel allows it.
 */
export function RetractAction({ feedId, submissionId, author, onRetracted }: RetractActionProps) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const retract = useRetractSubmission(feedId);

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
            <li>Telegram and Discord messages are deleted, Notion pages archived, Supabase rows deleted.</li>
            <li>The item leaves the feed's RSS, Atom and JSON feeds.</li>
            <li>
              Posts on NEAR Social (on chain) and through Crosspost stay; they are listed as “cannot retract”.
            </li>
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
