import { EyeIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "#web/components/ui/button";

// The dialog and its channel views load when a moderator first opens a preview.
const PreviewDialog = lazy(() => import("./PreviewDialog"));

interface PreviewButtonProps {
  feedId: string;
  submissionId: string;
  username: string;
  disabled?: boolean;
  onApprove: () => void;
}

/** "Preview" on a pending post: what each channel would publish if it were approved now. */
export function PreviewButton({ feedId, submissionId, username, disabled, onApprove }: PreviewButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setOpen(true)}
        disabled={disabled}
        className="text-muted hover:text-ink"
        data-testid="preview-channels"
      >
        <EyeIcon aria-hidden="true" />
        Preview
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <PreviewDialog
            feedId={feedId}
            submissionId={submissionId}
            username={username}
            onApprove={onApprove}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
