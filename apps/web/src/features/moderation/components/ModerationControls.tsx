import { CheckIcon, MessageSquarePlusIcon, XIcon } from "lucide-react";
import type { KeyboardEvent, ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import type { ModerationAction } from "#web/features/moderation/mutations";
import { TRIAGE_KEYS } from "#web/features/moderation/triage";

export const noteInputId = (submissionId: string) => `moderation-note-${submissionId}`;

interface ModerationControlsProps {
  submissionId: string;
  /** A decision for this item is on its way to the server. */
  busy: boolean;
  /** The note draft, or undefined while the note field is closed. */
  note: string | undefined;
  onNoteChange: (note: string | undefined) => void;
  onDecide: (action: ModerationAction) => void;
  /** Escape in the note field hands focus back to the list item, keeping the draft. */
  onLeaveNote: () => void;
  /** More controls after the note toggle (the channel preview). */
  extra?: ReactNode;
}

/** Approve / Reject for one pending item, with an optional note sent along with the decision. */
export function ModerationControls({
  submissionId,
  busy,
  note,
  onNoteChange,
  onDecide,
  onLeaveNote,
  extra,
}: ModerationControlsProps) {
  const inputId = noteInputId(submissionId);
  const noteOpen = note !== undefined;

  const onNoteKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onLeaveNote();
    }
  };

  return (
    <div className="mt-4 flex flex-col gap-3 border-t border-line pt-4" data-testid="moderation-controls">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          onClick={() => onDecide("approve")}
          disabled={busy}
          aria-keyshortcuts={TRIAGE_KEYS.approve}
        >
          <CheckIcon aria-hidden="true" />
          Approve
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onDecide("reject")}
          disabled={busy}
          aria-keyshortcuts={TRIAGE_KEYS.reject}
          className="text-red-700 hover:bg-red-50 hover:text-red-800"
        >
          <XIcon aria-hidden="true" />
          Reject
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={noteOpen}
          aria-controls={noteOpen ? inputId : undefined}
          aria-keyshortcuts={TRIAGE_KEYS.note}
          onClick={() => onNoteChange(noteOpen ? undefined : "")}
          className="text-muted hover:text-ink"
        >
          <MessageSquarePlusIcon aria-hidden="true" />
          {noteOpen ? "Remove note" : "Add note"}
        </Button>
        {extra}
      </div>
      {noteOpen ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={inputId} className="text-xs font-medium text-muted">
            Moderation note (optional, saved with your decision)
          </label>
          <Input
            id={inputId}
            value={note}
            maxLength={2000}
            placeholder="Why approve or reject?"
            disabled={busy}
            onChange={(event) => onNoteChange(event.target.value)}
            onKeyDown={onNoteKeyDown}
            aria-describedby={`${inputId}-hint`}
            className="h-9"
          />
          <p id={`${inputId}-hint`} className="hidden text-xs text-muted sm:block">
            Press Esc to return to the list, then A or R to decide.
          </p>
        </div>
      ) : null}
    </div>
  );
}
