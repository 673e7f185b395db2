import type { Publication } from "@curate/core";
import { Undo2Icon } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { useRetractCopy } from "../mutations";

/** One click takes back an older copy still published beside its channel's live one; the post stays approved. */
export function RetractCopyAction({ publication }: { publication: Publication }) {
  const retract = useRetractCopy();
  return (
    <Button
      size="sm"
      variant="secondary"
      className="text-red-700 hover:bg-red-50 hover:text-red-800"
      loading={retract.isPending}
      disabled={retract.isSuccess}
      onClick={() => retract.mutate({ publicationId: publication.id, feedId: publication.feedId })}
    >
      <Undo2Icon aria-hidden="true" />
      {retract.isSuccess ? "Retracting…" : "Retract this copy"}
    </Button>
  );
}
