import type { CuratorTrust } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { ShieldCheckIcon, ShieldOffIcon } from "lucide-react";
import { Badge } from "#web/components/ui/badge";
import { Handle } from "#web/components/ui/handle";
import { RelativeTime } from "#web/components/ui/relative-time";
import { shortAccountId } from "#web/lib/account";

/** A curator's name as shown: their Curate account as it is, a handle key as the handle on its network. */
function CuratorName({ trust }: { trust: CuratorTrust }) {
  return trust.account ? (
    <span className="truncate font-medium text-ink" title={trust.account}>
      {shortAccountId(trust.account)}
    </span>
  ) : (
    <Handle handleKey={trust.curator} className="font-medium text-ink" />
  );
}

/** Standings under a feed's trust policy: who (or, on a profile, which feed), trusted or not, why, and since when. */
export function TrustList({ items, show }: { items: CuratorTrust[]; show: "curator" | "feed" }) {
  return (
    <ul className="flex flex-col divide-y divide-line" data-testid="trust-list">
      {items.map((trust) => (
        <li
          key={`${trust.feedId}:${trust.curator}`}
          className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
          data-testid="trust-entry"
          data-trusted={trust.trusted}
        >
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            {trust.trusted ? (
              <ShieldCheckIcon className="size-4 shrink-0 text-emerald-700" aria-hidden="true" />
            ) : (
              <ShieldOffIcon className="size-4 shrink-0 text-muted" aria-hidden="true" />
            )}
            {show === "curator" ? (
              <CuratorName trust={trust} />
            ) : (
              <Link
                to="/feed/$feedId"
                params={{ feedId: trust.feedId }}
                className="truncate font-medium text-ink hover:text-accent hover:underline"
              >
                {trust.feedName ?? `#${trust.feedId}`}
              </Link>
            )}
            <Badge tone={trust.trusted ? "green" : "neutral"}>
              {trust.trusted ? "Trusted" : "Not trusted"}
              {trust.pinned ? " · pinned" : ""}
            </Badge>
          </div>
          <p className="text-sm text-muted">
            {trust.explanation}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">, </span>
            {trust.trusted ? "trusted" : "changed"} <RelativeTime date={trust.changedAt} />
          </p>
        </li>
      ))}
    </ul>
  );
}
