import { Undo2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "#web/components/ui/button";
import { formatDateTime } from "#web/lib/format";

/** The longest a browser timer waits (about 24.8 days); a window ending later is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface UndoWindowActionProps {
  /** When the feed's undo window closes (ISO). */
  until: string;
  /** The post's author as the app shows them. */
  author: string;
  busy?: boolean;
  onUndo: () => void;
}

/**
 * Undo on the card of an approved post while the feed's undo window is open. In a feed that decides by a quorum,
 * the toast offering Undo reaches only the approver whose vote met the quorum; every other approver who voted
 * finds it here, until the window closes (then the button goes: the post is being published).
 */
export function UndoWindowAction({ until, author, busy = false, onUndo }: UndoWindowActionProps) {
  const [open, setOpen] = useState(() => Date.parse(until) > Date.now());

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = Date.parse(until) - Date.now();
      setOpen(left > 0);
      if (left > 0) timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [until]);

  if (!open) return null;
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={onUndo}
      title={`Until ${formatDateTime(until)}`}
      aria-label={`Undo the approval of the post by ${author}`}
      data-testid="undo-approval"
    >
      <Undo2Icon aria-hidden="true" />
      Undo approval
    </Button>
  );
}
