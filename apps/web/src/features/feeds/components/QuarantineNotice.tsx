import type { ConfigQuarantine } from "@curate/core";
import { Alert } from "#web/components/ui/alert";
import { FieldIssueList } from "./FieldIssueList";

/**
 * Told to a feed's owners only (nobody else is shown a quarantined feed): where its config holds what looks like a
 * raw credential, and what to do about it.
 */
export function QuarantineNotice({ quarantine }: { quarantine: ConfigQuarantine }) {
  return (
    <Alert
      variant="warning"
      className="mt-3 max-w-2xl"
      title="Hidden and paused: this feed's config holds what looks like a raw credential"
      data-testid="feed-quarantine"
    >
      <p>
        Only you and the feed's admins can see it, and it collects and publishes nothing until its config is
        saved without the credential. Rotate the credential (it was stored here and may have been read), keep
        the new one as a feed secret, and write its {"{{PLACEHOLDER}}"} in its place:
      </p>
      <div className="mt-2">
        <FieldIssueList issues={quarantine.findings} />
      </div>
    </Alert>
  );
}
