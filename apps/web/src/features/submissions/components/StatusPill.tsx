import type { SubmissionStatus } from "@curate/core";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { cn } from "#web/lib/cn";

export const STATUS_LABELS: Record<SubmissionStatus, string> = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
};

const tones: Record<SubmissionStatus, BadgeTone> = { pending: "amber", approved: "green", rejected: "red" };
const dots: Record<SubmissionStatus, string> = {
  pending: "bg-amber-500",
  approved: "bg-emerald-500",
  rejected: "bg-red-500",
};

export function StatusDot({ status, className }: { status: SubmissionStatus; className?: string }) {
  return (
    <span aria-hidden="true" className={cn("size-1.5 shrink-0 rounded-full", dots[status], className)} />
  );
}

export function StatusPill({ status }: { status: SubmissionStatus }) {
  return (
    <Badge tone={tones[status]} data-testid="status-pill">
      <StatusDot status={status} />
      {STATUS_LABELS[status]}
    </Badge>
  );
}
