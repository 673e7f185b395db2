import type { ProcessingJobStatus, ProcessingStepStatus } from "@curate/core";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { cn } from "#web/lib/cn";

type Status = ProcessingJobStatus | ProcessingStepStatus;

const LOOKS: Record<Status, { label: string; tone: BadgeTone; dot: string }> = {
  pending: { label: "Pending", tone: "amber", dot: "bg-amber-500" },
  processing: { label: "Processing", tone: "accent", dot: "bg-accent animate-pulse" },
  completed: { label: "Completed", tone: "green", dot: "bg-emerald-500" },
  success: { label: "Success", tone: "green", dot: "bg-emerald-500" },
  failed: { label: "Failed", tone: "red", dot: "bg-red-500" },
  completed_with_errors: { label: "Completed with errors", tone: "orange", dot: "bg-orange-500" },
  cancelled: { label: "Cancelled", tone: "neutral", dot: "bg-zinc-400" },
};

/** A job's or a step's status in the design system's colours. */
export function ProcessingStatusPill({ status }: { status: Status }) {
  const look = LOOKS[status];
  return (
    <Badge tone={look.tone} data-testid="processing-status" data-status={status}>
      <span aria-hidden="true" className={cn("size-1.5 shrink-0 rounded-full", look.dot)} />
      {look.label}
    </Badge>
  );
}
