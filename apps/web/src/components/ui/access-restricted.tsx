import { LockIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "./alert";

/** A moderators-only tab seen by someone else: what they would need, in place of the tab's content. */
export function AccessRestricted({ children }: { children: ReactNode }) {
  return (
    <Alert
      variant="warning"
      layout="block"
      role="alert"
      title={
        <span className="inline-flex items-center gap-2">
          <LockIcon aria-hidden="true" className="size-4" />
          Access Restricted
        </span>
      }
    >
      <p className="max-w-lg">{children}</p>
    </Alert>
  );
}
